/**
 * What only processes show, searched byte for byte for the API key, every authString and every zone
 * password: a deployment through the real `pulumi` CLI and dynamic-provider host with faults and gRPC
 * tracing on (the serialized provider, the checkpoint outside its secret envelopes, the raw output of the
 * host, the program and the language host, what the CLI printed and the kit's result, the emulator's log
 * and call records), and the emulator CLI's output. The client's errors and events are searched in
 * secrets.test.ts.
 */
import { spawn } from "child_process";
import { randomBytes } from "crypto";
import * as fs from "fs";
import * as path from "path";
import { CdnClient } from "../../provider/api/client";
import { startEmulator, type Emulator } from "../../provider/emulator";
import { cliExport, cliUp, type CliOptions, type DeployResult } from "../../provider/testing";
import { pulumiCli, type ZoneDecl } from "../support/engine";
import { writeFigures } from "./figures";
import { authCandidates, captured, findSecrets, PRELOAD, resultText, ROOT, tempDir } from "./helpers";

type Props = Record<string, unknown>;
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
  writeFigures("secrets-host", { ...found, total: Object.values(found).reduce((a, b) => a + b, 0) });
});

function zones(password: string, label: string): ZoneDecl[] {
  return [
    { kind: "PullZone", name: "pull", args: { name: "sec-pull", origin: "https://origin.example.com", label } },
    { kind: "PushZone", name: "push", args: { name: "sec-push", password, label } },
    { kind: "VodZone", name: "vod", args: { name: "sec-vod", password, label } },
    { kind: "LiveZone", name: "live", args: { name: "sec-live", password, label } },
  ];
}

describe("a deployment with faults, at every log level", () => {
  const backendDir = path.join(dir, "backend");
  const captureDir = path.join(dir, "capture");
  const results: DeployResult[] = [];
  let options: CliOptions;
  let started = 0;
  let ended = 0;

  beforeAll(async () => {
    fs.mkdirSync(captureDir);
    // gRPC tracing at its most verbose in the host and the program; the provider's [cdn] lines are on by default.
    options = {
      program: path.join(ROOT, "tests/fixtures/zones/program.js"),
      backendDir,
      pulumi: (await pulumiCli()).pulumi,
      projectDir: ROOT,
      project: "secrets",
      config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId) },
      secretConfig: { "cdn:apiKey": emu.apiKey },
      continueOnError: true,
      env: {
        CDN_TEST_ZONES: JSON.stringify(zones(PW1, "one")),
        CDN_RETRIES: "1",
        GRPC_TRACE: "all",
        GRPC_VERBOSITY: "DEBUG",
        PULUMI_DEBUG_PROMISE_LEAKS: "true",
        NODE_OPTIONS: `--require ${PRELOAD}`,
        CDN_TEST_CAPTURE_DIR: captureDir,
      },
    };
    started = Date.now();
    emu.faults.add({ kind: "dropAfter", method: "pushzone.create", count: 1 });
    emu.faults.add({ kind: "http503", method: "pushzone.update", count: 2 }); // the takeover's update runs out: partial create
    emu.faults.add({ kind: "expiredAuth", method: "vodzone.create", rate: 1 });
    emu.faults.add({ kind: "truncated", method: "livezone.create", count: 1 });
    emu.faults.add({ kind: "html", method: "pullzone.create", count: 1 });
    results.push(await cliUp(options));
    ended = Date.now();
  });

  test("the deployments did what the search relies on: errors printed, passwords sent, calls signed", () => {
    expect(results[0].ok).toBe(false);
    expect(results[0].errors.join("\n")).toMatch(/push zone 'sec-push' \(id \d+\) was created .* It is kept in state/); // a partial create
    expect(results[0].errors.join("\n")).toMatch(/authentication failed/);
    expect(emu.passwordMatches("livezone", emu.zones("livezone")[0].id, PW1)).toBe(true);
    expect(results[0].log.join("\n")).toMatch(/\[cdn\]/);
    expect(captured(captureDir, ".out")).toMatch(/Http2Transport|subchannel|channel/i); // tracing really was on
  });

  test("no secret in the provider text, the checkpoint outside envelopes, the processes' raw output, the CLI's or the kit's result or the emulator's log", async () => {
    const sent = captured(captureDir, ".auth").split("\n").filter(Boolean);
    const candidates = authCandidates(API_KEY, started - 2000, ended + 2000);
    expect(sent.length).toBeGreaterThan(10);
    // The recomputed candidates hold every authString really sent, so searching them is searching those.
    expect(sent.filter((a) => !candidates.has(a))).toEqual([]);

    const raw = fs.readFileSync(path.join(backendDir, ".pulumi/stacks/secrets/dev.json"), "utf8");
    const state = (await cliExport(options, true)) as { deployment: { resources: Record<string, unknown>[] } };
    const outsideEnvelopes = raw.replace(/"ciphertext":\s*"[^"]*"/g, '"ciphertext":""');
    const outFiles = fs.readdirSync(captureDir).filter((f) => f.endsWith(".out"));
    const texts: Record<string, string> = {
      "serialized provider": state.deployment.resources
        .map((r) => JSON.stringify([(r.inputs as Props)?.__provider, (r.outputs as Props)?.__provider]))
        .join("\n"),
      checkpoint: outsideEnvelopes,
      "kit result": results.map(resultText).join("\n"),
      "emulator log": emuLog.join("\n"),
      "emulator call records": JSON.stringify(emu.calls),
    };
    for (const f of outFiles)
      texts[`raw output of the ${f.replace(/\.out$/, "")}`] = fs.readFileSync(path.join(captureDir, f), "utf8");
    expect(Object.keys(texts).filter((k) => k.startsWith("raw output of the host"))).toHaveLength(1);
    expect(Object.keys(texts).filter((k) => k.startsWith("raw output of the program"))).toHaveLength(1);
    // Secrets are in the checkpoint, but only inside envelopes.
    const live = state.deployment.resources.find((r) => String(r.urn).endsWith("::live"))!;
    expect((live.outputs as Props).password).toEqual(expect.objectContaining({ plaintext: JSON.stringify(PW1) }));
    expect(raw).toContain("ciphertext");
    // The search finds a secret where one is (the decrypted state), so an empty result means something.
    // push: input only (partial create); live: input and output; the stack's outputs: the three passwords exported.
    expect(findSecrets({ "decrypted state": JSON.stringify(state) }, [PW1])).toHaveLength(6);

    const hits = findSecrets(texts, [API_KEY, PW1, PW3, ...candidates]);
    found["host deployment"] = hits.length;
    expect(hits).toEqual([]);
  });
});

describe("the emulator CLI", () => {
  test("prints a given key masked, and no password or authString at any point", async () => {
    const key = `cli-key-${randomBytes(10).toString("hex")}`;
    const child = spawn(
      process.execPath,
      [path.join(ROOT, "provider/dist/emulator/cli.js"), "--port", "0", "--api-key", key],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const closed = new Promise((r) => child.on("close", r));
    try {
      // Resolves on the CLI's "listening on" line (the test's time limit covers a CLI that never says it).
      const url = await new Promise<string>((resolve) => {
        child.stdout.on("data", () => {
          const m = /listening on (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]);
        });
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const started = Date.now();
      const c = new CdnClient({ baseUrl: url, apiUserId: 4242, apiKey: key, retries: 0 });
      await c.pushzone.create({ values: { name: "cli-a", password: PW3 } });
      await c.pushzone.create({ values: { name: "cli-a", password: PW3 } }).catch(() => undefined);
      await c.pushzone.update({ id: 1, values: { password: PW3 } });
      const wrong = new CdnClient({ baseUrl: url, apiUserId: 4242, apiKey: `${key}x`, retries: 0 });
      await wrong.user.listUsers().catch(() => undefined);
      wrong.close();
      c.close();
      child.kill("SIGTERM");
      await closed;
      expect(out).toMatch(/pushzone\.update/);
      expect(out).toMatch(/development tool, not a production server/);
      const hits = findSecrets({ "CLI output": out }, [
        key,
        PW3,
        ...authCandidates(key, started - 2000, Date.now() + 2000),
      ]);
      found["emulator CLI"] = hits.length;
      expect(hits).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await closed;
    }
  });
});
