/**
 * The emulator as most tests use it: one in-process instance on a free port per test file, closed
 * after the file, and the stack configuration that points a deployment at it.
 */
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
