/**
 * The API key, every authString and every password, searched for byte for byte in all that the
 * client leaves behind: every error with every property reflection reaches, the client's onEvent,
 * the emulator's log and call records. Also: the emulator listens on 127.0.0.1 unless told
 * otherwise, and says it is not a production server. What the host process and the emulator CLI
 * print is searched in secrets.host.test.ts.
 */
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as http from "http";
import * as os from "os";
import * as path from "path";
import { CdnClient, type CallEvent } from "../../provider/api/client";
import { FAULT_KINDS, startEmulator, type Emulator } from "../../provider/emulator";
import { writeFigures } from "./figures";
import { rpc, scriptedServer } from "../support/scriptedServer";
import { authCandidates, errorText, findSecrets, ROOT } from "./helpers";

const API_KEY = `rel-api-key-${randomBytes(12).toString("hex")}`;
const PW3 = `Pw3-${randomBytes(8).toString("hex")}`;
const emuLog: string[] = [];
let emu: Emulator;
const found: Record<string, number> = {};

beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKey: API_KEY, log: (l) => emuLog.push(l) });
});
afterAll(async () => {
  await emu.close();
  writeFigures("secrets", { ...found, total: Object.values(found).reduce((a, b) => a + b, 0) });
});

describe("the client", () => {
  test("no secret in any error (every reachable property), any onEvent event, or the emulator's records", async () => {
    const events: CallEvent[] = [];
    const client = new CdnClient({
      baseUrl: emu.url,
      apiUserId: emu.apiUserId,
      apiKey: API_KEY,
      retries: 1,
      retryBaseDelayMs: 1,
      onEvent: (e) => events.push(e),
    });
    const wrongKey = new CdnClient({
      baseUrl: emu.url,
      apiUserId: emu.apiUserId,
      apiKey: `${API_KEY}-wrong`,
      retries: 0,
      onEvent: (e) => events.push(e),
    });
    const skewed = new CdnClient({
      baseUrl: emu.url,
      apiUserId: emu.apiUserId,
      apiKey: API_KEY,
      retries: 0,
      now: () => Date.now() - 3_600_000,
      onEvent: (e) => events.push(e),
    });
    // "Wrapping the client transport": every authString sent, as the request leaves.
    const sent: string[] = [];
    for (const c of [client, wrongKey, skewed]) {
      const transport = (
        c as unknown as { transport: { send: (g: string, m: string, p: unknown[], s: unknown) => Promise<unknown> } }
      ).transport;
      const send = transport.send.bind(transport);
      transport.send = (g, m, p, s) => {
        sent.push(String(p[1]));
        return send(g, m, p, s);
      };
    }
    const errors: unknown[] = [];
    const attempt = async (f: () => Promise<unknown>) => {
      try {
        await f();
      } catch (e) {
        errors.push(e);
      }
    };
    const started = Date.now();
    // Every general fault kind the emulator has, but the added latency (no failure to redact).
    const kinds = FAULT_KINDS.filter((k) => k !== "latency");
    for (const kind of kinds) {
      emu.faults.add({ kind, rate: 1, retryAfterS: 0 }); // a 503's wait proves nothing here
      await attempt(() =>
        client.pushzone.create({ values: { name: `c-${kind.toLowerCase()}`, password: PW3, label: "x" } }),
      );
      await attempt(() => client.vodzone.update({ id: 999999, values: { password: PW3 } }));
      await attempt(() => client.pullzone.listZones());
      emu.faults.clear();
    }
    await attempt(() => client.pushzone.create({ values: { name: "c-twice", password: PW3 } }));
    await attempt(() => client.pushzone.create({ values: { name: "c-twice", password: PW3 } })); // name in use
    await attempt(() => client.vodzone.update({ id: 999999, values: { password: PW3 } })); // operation failed
    await attempt(() => client.livezone.create({ values: { name: "c-bad", password: `${PW3}\u0001` } })); // refused before sending
    await attempt(() =>
      client.pushzone.create({ values: { name: "c-extra", password: PW3, ...({ secret: PW3 } as object) } as never }),
    );
    await attempt(() => wrongKey.pullzone.listZones());
    await attempt(() => wrongKey.livezone.create({ values: { name: "c-wrong", password: PW3 } }));
    await attempt(() => skewed.vodzone.create({ values: { name: "c-skew", password: PW3 } }));
    await attempt(() => client.call("pushzone.update", [1, { password: PW3, nope: PW3 }]));
    const ended = Date.now();
    for (const c of [client, wrongKey, skewed]) c.close();

    expect(errors.length).toBeGreaterThanOrEqual(kinds.length * 3);
    expect(sent.length).toBeGreaterThan(20);
    const candidates = authCandidates(API_KEY, started - 2000, ended + 2000);
    for (const k of authCandidates(`${API_KEY}-wrong`, started - 2000, ended + 2000)) candidates.add(k);
    for (const k of authCandidates(API_KEY, started - 3_602_000, ended - 3_598_000)) candidates.add(k);
    expect(sent.filter((a) => !candidates.has(a))).toEqual([]);
    const texts: Record<string, string> = {
      errors: errors.map(errorText).join("\n----\n"),
      events: JSON.stringify(events),
      "client as JSON": JSON.stringify(client) + require("util").inspect(client, { showHidden: true, depth: 4 }),
      "emulator log": emuLog.join("\n"),
      "emulator call records": JSON.stringify(emu.calls),
    };
    const hits = findSecrets(texts, [API_KEY, PW3, ...candidates]);
    found.client = hits.length;
    expect(hits).toEqual([]);
  });
});

describe("a password echoed where it was not sent (issue 33, point 5)", () => {
  test("a server echoing in a listZones fault the password another call sent: redacted, in clear or with zero-width characters", async () => {
    const server = await scriptedServer();
    const client = server.client();
    try {
      const pw = `Echoed-${randomBytes(6).toString("hex")}`;
      server.body(rpc.answer(rpc.struct({ id: "<int>7</int>" })));
      await client.pushzone.create({ values: { name: "echoed", password: pw } });
      server.body(rpc.fault(99, `refused: ${pw} / ${[...pw].join("\u200b")} / ${pw.toUpperCase()}`));
      const e = await client.pushzone.listZones().catch((x: unknown) => x);
      expect(server.received.at(-1)).not.toContain(pw); // listZones does not send it
      const text = errorText(e);
      expect(text).toContain("refused: [redacted] / [redacted] / [redacted]");
      expect(text.replace(/\u200b/g, "").toLowerCase()).not.toContain(pw.toLowerCase());
    } finally {
      client.close();
      await server.close();
    }
  });
});

describe("where the emulator listens", () => {
  test("127.0.0.1 unless told otherwise: not reachable on the machine's other addresses", async () => {
    expect(emu.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((a) => a && !a.internal && a.family === "IPv4")
      .map((a) => a!.address);
    // Connecting to the emulator's port on any non-loopback address of this machine is refused.
    const outcomes = await Promise.all(
      ["127.0.0.1", ...others].map(
        (host) =>
          new Promise<string>((resolve) => {
            const req = http.request(
              { host, port: emu.port, path: "/xmlrpc/user", method: "GET", timeout: 3000 },
              (res) => {
                res.resume();
                resolve(`${host}:answered`);
              },
            );
            req.on("error", (e: NodeJS.ErrnoException) => resolve(`${host}:${e.code}`));
            req.on("timeout", () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
            req.end();
          }),
      ),
    );
    expect(outcomes[0]).toBe("127.0.0.1:answered");
    for (const o of outcomes.slice(1)) expect(o).toMatch(/:ECONNREFUSED$/);
  });

  test("docs/emulator.md and the CLI's help say it is a development tool, not a production server", () => {
    expect(fs.readFileSync(path.join(ROOT, "docs/emulator.md"), "utf8")).toMatch(/not a production server/i);
    expect(require("../../provider/emulator/cli").USAGE).toMatch(/not a production server/i);
  });
});
