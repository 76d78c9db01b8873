/**
 * The emulator as most tests use it: one in-process instance on a free port per test file, closed
 * after the file, and the stack configuration that points a deployment at it.
 */
import * as xmlrpc from "xmlrpc";
import { authString, currentDate } from "../../provider/api/auth";
import { startEmulator, type Emulator, type EmulatorOptions } from "../../provider/emulator";

export type { Emulator };

/** Starts an emulator on a free port of 127.0.0.1. */
export function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ port: 0, ...options });
}

/**
 * Starts an emulator before the file's tests and closes it after them; `get()` returns it (inside a
 * test or hook). Emulators started with `another()` are closed with it.
 */
export function useEmulator(options: EmulatorOptions = {}): {
  get(): Emulator;
  another(o?: EmulatorOptions): Promise<Emulator>;
} {
  let current: Emulator | undefined;
  const started: Emulator[] = [];
  beforeAll(async () => {
    current = await emulator(options);
    started.push(current);
  });
  afterAll(async () => {
    await Promise.all(started.splice(0).map((e) => e.close()));
  });
  return {
    get: () => {
      if (!current) throw new Error("the emulator starts in beforeAll: use it inside a test or hook");
      return current;
    },
    another: async (o: EmulatorOptions = {}) => {
      const e = await emulator({ ...options, ...o });
      started.push(e);
      return e;
    },
  };
}

/** Stack config (`cdn:*`, namespaced) for a deployment against `emu`; the API key goes in the secret part. */
export function stackConfig(emu: Emulator): { config: Record<string, string>; secretConfig: Record<string, string> } {
  return {
    config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId) },
    secretConfig: { "cdn:apiKey": emu.apiKey },
  };
}

/**
 * One XML-RPC call to `emu` at `path` through the xmlrpc package's client, the parameters as given. Its connection
 * closes after the answer: a kept-alive socket reused right after a long report had held the event loop past the
 * emulator's idle timeout was reset by that overdue timer ("socket hang up" under load).
 */
export function sendXmlRpc(emu: Emulator, path: string, wire: string, params: unknown[]): Promise<any> {
  return new Promise((resolve, reject) => {
    const client = xmlrpc.createClient({ host: "127.0.0.1", port: emu.port, path, headers: { Connection: "close" } });
    client.methodCall(wire, params, (err, value) => (err ? reject(err) : resolve(value)));
  });
}

/** Calls `<group>.<method>` on `emu` signed as its account (or `as`), dated `now()`, at its group's path. */
export function signedCall(emu: Emulator, as: { now?: () => number; apiUserId?: number; apiKey?: string } = {}) {
  return (wire: string, ...params: unknown[]): Promise<any> => {
    const date = currentDate(as.now?.());
    const auth = authString(date, as.apiKey ?? emu.apiKey, wire);
    return sendXmlRpc(emu, `/xmlrpc/${wire.split(".")[0]}`, wire, [
      as.apiUserId ?? emu.apiUserId,
      auth,
      date,
      ...params,
    ]);
  };
}
