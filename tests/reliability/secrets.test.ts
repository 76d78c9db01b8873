/**
 * The API key, every authString and every zone password, searched for byte for byte in all that a
 * deployment and the client leave behind: the serialized provider, the state file outside its
 * secret envelopes, the raw output of the host (and the driver's runner) with gRPC tracing on,
 * the driver's log and programLog, every error with every property reflection reaches, the
 * client's onEvent, the emulator's log and call records, and the emulator CLI's output.
 * Also: the emulator listens on 127.0.0.1 unless told otherwise, and says it is not a production server.
 */
import { spawn } from "child_process";
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as http from "http";
import * as os from "os";
import * as path from "path";
import { CdnClient, type CallEvent } from "../../provider/api/client";
import { startEmulator, type Emulator } from "../../provider/emulator";
import * as driver from "../../provider/testing";
import { writeFigures } from "./figures";
import { authCandidates, captured, deploy, errorText, findSecrets, resultText, ROOT, tempDir, type Zone } from "./helpers";

const API_KEY = `rel-api-key-${randomBytes(12).toString("hex")}`;
const PW1 = `Pw1-${randomBytes(8).toString("hex")}`;
const PW3 = `Pw3-${randomBytes(8).toString("hex")}`;
const dir = tempDir("cdn-reliability-secrets-");
const emuLog: string[] = [];
let emu: Emulator;
const found: Record<string, number> = {};

beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKey: API_KEY, log: (l) => emuLog.push(l) });
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
  writeFigures("secrets", { ...found, total: Object.values(found).reduce((a, b) => a + b, 0) });
});

function zones(password: string, label: string): Zone[] {
  return [
    { kind: "PullZone", name: "pull", args: { name: "sec-pull", origin: "https://origin.example.com", label } },
    { kind: "PushZone", name: "push", args: { name: "sec-push", password, label } },
    { kind: "VodZone", name: "vod", args: { name: "sec-vod", password, label } },
    { kind: "LiveZone", name: "live", args: { name: "sec-live", password, label } },
  ];
}

describe("a deployment with faults, at every log level", () => {
  const stateFile = path.join(dir, "state.json");
  const captureDir = path.join(dir, "capture");
  const results: driver.DeployResult[] = [];
  let started = 0;
  let ended = 0;

  beforeAll(async () => {
    fs.mkdirSync(captureDir);
    // gRPC tracing at its most verbose in the host and runner; the provider's [cdn] lines are on by default.
    const env = { CDN_RETRIES: "1", GRPC_TRACE: "all", GRPC_VERBOSITY: "DEBUG", PULUMI_DEBUG_PROMISE_LEAKS: "true" };
    started = Date.now();
    emu.faults.add({ kind: "dropAfter", method: "pushzone.create", count: 1 });
    emu.faults.add({ kind: "http503", method: "pushzone.update", count: 2 }); // the takeover's update runs out: partial create
    emu.faults.add({ kind: "expiredAuth", method: "vodzone.create", rate: 1 });
    emu.faults.add({ kind: "truncated", method: "livezone.create", count: 1 });
    emu.faults.add({ kind: "html", method: "pullzone.create", count: 1 });
    results.push(await deploy(emu, "up", zones(PW1, "one"), { stateFile, env, captureDir }));
    ended = Date.now();
  });

  test("the deployments did what the search relies on: errors printed, passwords sent, calls signed", () => {
    expect(results[0].ok).toBe(false);
    expect(results[0].errors.join("\n")).toMatch(/partially failed/);
    expect(results[0].errors.join("\n")).toMatch(/authentication failed/);
    expect(emu.passwordMatches("livezone", emu.zones("livezone")[0].id, PW1)).toBe(true);
    expect(results[0].log.join("\n")).toMatch(/\[cdn\]/);
    expect(captured(captureDir, ".out")).toMatch(/Http2Transport|subchannel|channel/i); // tracing really was on
  });

  test("no secret in the provider text, the state file outside envelopes, the host's raw output, the driver's result or the emulator's log", () => {
    const sent = captured(captureDir, ".auth").split("\n").filter(Boolean);
    const candidates = authCandidates(API_KEY, started - 2000, ended + 2000);
    expect(sent.length).toBeGreaterThan(10);
    // The recomputed candidates hold every authString really sent, so searching them is searching those.
    expect(sent.filter((a) => !candidates.has(a))).toEqual([]);

    const raw = fs.readFileSync(stateFile, "utf8");
    const state = driver.readState(stateFile);
    const outsideEnvelopes = raw.replace(/"ciphertext":\s*"[^"]*"/g, '"ciphertext":""');
    const hostPid = results.map((r) => r.processes.host);
    const outFiles = fs.readdirSync(captureDir).filter((f) => f.endsWith(".out"));
    const texts: Record<string, string> = {
      "serialized provider": state.resources.map((r) => String(r.inputs.__provider) + String(r.outputs.__provider)).join("\n"),
      "state file": outsideEnvelopes,
      "driver result": results.map(resultText).join("\n"),
      "emulator log": emuLog.join("\n"),
      "emulator call records": JSON.stringify(emu.calls),
    };
    for (const f of outFiles) {
      const pid = Number(f.replace(/\.out$/, ""));
      texts[`raw output of the ${hostPid.includes(pid) ? "host" : "runner"} (pid ${pid})`] = fs.readFileSync(path.join(captureDir, f), "utf8");
    }
    expect(Object.keys(texts).filter((k) => k.startsWith("raw output of the host"))).toHaveLength(1);
    // Secrets are in state, but only inside envelopes.
    expect(state.resources.find((r) => r.name === "live")!.outputs.password).toBe(PW1);
    expect(raw).toContain("ciphertext");
    // The search finds a secret where one is (the decrypted state), so an empty result means something.
    expect(findSecrets({ "decrypted state": JSON.stringify(state) }, [PW1])).toHaveLength(3); // push: input only (partial create); live: input and output

    const hits = findSecrets(texts, [API_KEY, PW1, PW3, ...candidates]);
    found["host deployment"] = hits.length;
    expect(hits).toEqual([]);
  });
});

describe("the client", () => {
  test("no secret in any error (every reachable property), any onEvent event, or the emulator's records", async () => {
    const events: CallEvent[] = [];
    const client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: API_KEY, retries: 1, retryBaseDelayMs: 1, onEvent: (e) => events.push(e) });
    const wrongKey = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: `${API_KEY}-wrong`, retries: 0, onEvent: (e) => events.push(e) });
    const skewed = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: API_KEY, retries: 0, now: () => Date.now() - 3_600_000, onEvent: (e) => events.push(e) });
    // "Wrapping the client transport": every authString sent, as the request leaves.
    const sent: string[] = [];
    for (const c of [client, wrongKey, skewed]) {
      const transport = (c as unknown as { transport: { send: (g: string, m: string, p: unknown[], s: unknown) => Promise<unknown> } }).transport;
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
    const kinds = ["http500", "http502", "http503", "resetBefore", "dropAfter", "truncated", "html", "expiredAuth"] as const;
    for (const kind of kinds) {
      emu.faults.add({ kind, rate: 1 });
      await attempt(() => client.pushzone.create({ name: `c-${kind.toLowerCase()}`, password: PW3, label: "x" }));
      await attempt(() => client.vodzone.update(999999, { password: PW3 }));
      await attempt(() => client.pullzone.listZones());
      emu.faults.clear();
    }
    await attempt(() => client.pushzone.create({ name: "c-twice", password: PW3 }));
    await attempt(() => client.pushzone.create({ name: "c-twice", password: PW3 })); // name in use
    await attempt(() => client.vodzone.update(999999, { password: PW3 })); // operation failed
    await attempt(() => client.livezone.create({ name: "c-bad", password: `${PW3}\u0001` })); // refused before sending
    await attempt(() => client.pushzone.create({ name: "c-extra", password: PW3, ...({ secret: PW3 } as object) } as never));
    await attempt(() => wrongKey.pullzone.listZones());
    await attempt(() => wrongKey.livezone.create({ name: "c-wrong", password: PW3 }));
    await attempt(() => skewed.vodzone.create({ name: "c-skew", password: PW3 }));
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

describe("the emulator CLI", () => {
  test("prints a given key masked, and no password or authString at any point", async () => {
    const key = `cli-key-${randomBytes(10).toString("hex")}`;
    const child = spawn(process.execPath, [path.join(ROOT, "provider/dist/emulator/cli.js"), "--port", "0", "--api-key", key], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const closed = new Promise((r) => child.on("close", r));
    try {
      const url = await new Promise<string>((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no listening line: ${out}`)), 20_000);
        child.stdout.on("data", () => {
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) {
            clearTimeout(t);
            resolve(m[1]);
          }
        });
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const started = Date.now();
      const c = new CdnClient({ baseUrl: url, apiUserId: 4242, apiKey: key, retries: 0 });
      await c.pushzone.create({ name: "cli-a", password: PW3 });
      await c.pushzone.create({ name: "cli-a", password: PW3 }).catch(() => undefined);
      await c.pushzone.update(1, { password: PW3 });
      const wrong = new CdnClient({ baseUrl: url, apiUserId: 4242, apiKey: `${key}x`, retries: 0 });
      await wrong.user.listUsers().catch(() => undefined);
      wrong.close();
      c.close();
      child.kill("SIGTERM");
      await closed;
      expect(out).toMatch(/pushzone\.update/);
      expect(out).toMatch(/development tool, not a production server/);
      const hits = findSecrets({ "CLI output": out }, [key, PW3, ...authCandidates(key, started - 2000, Date.now() + 2000)]);
      found["emulator CLI"] = hits.length;
      expect(hits).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await closed;
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
            const req = http.request({ host, port: emu.port, path: "/xmlrpc/user", method: "GET", timeout: 3000 }, (res) => {
              res.resume();
              resolve(`${host}:answered`);
            });
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
    expect(require("../../provider/emulator/cli-args").USAGE).toMatch(/not a production server/i);
  });
});
