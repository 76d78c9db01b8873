/**
 * `cdn-zones import` run in a Pulumi project reads the selected stack's `cdn:*` config (issue 26, item 3),
 * in process: the flags, then `CDN_*`, then the stack decide; the hints leave out what the stack has; the
 * stack is read with `pulumi config --json --show-secrets` in the project (a stand-in runner here; the real
 * CLI in tests/package/first-hour.test.ts).
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { importZones } from "../../provider/cli/import";
import { findProjectDir, parseConfigJson, readStackConfig, type PulumiRunner } from "../../provider/cli/stackConfig";
import { useEmulator } from "../support/emulator";

const emuRef = useEmulator();
const progress = () => undefined;
const pullOnly = { kinds: ["pull" as const], excludeState: [] };

/** The stack's config of a project pointed at the emulator, as a lookup. */
const stackOf = (over: Record<string, string> = {}) => {
  const emu = emuRef.get();
  const values: Record<string, string> = {
    "cdn:baseUrl": emu.url,
    "cdn:apiUserId": String(emu.apiUserId),
    "cdn:apiKey": emu.apiKey,
    ...over,
  };
  return (key: string) => values[key];
};

beforeAll(async () => {
  await emuRef.get().seedZone("pullzone", { name: `stack-pull-${process.pid % 997}`, origin: "https://o.example.com" });
});

describe("the connection", () => {
  test("comes from the stack's config when neither the flags nor CDN_* give it", async () => {
    const r = await importZones(pullOnly, progress, {}, stackOf());
    expect(r.counts.pull).toBeGreaterThan(0);
    expect(r.text).toContain(`from ${emuRef.get().url} (API user ${emuRef.get().apiUserId})`);
  });

  test("CDN_* set in the environment wins over the stack's value", async () => {
    const err = await importZones(pullOnly, progress, { CDN_API_KEY: "env-key-that-is-wrong-0123" }, stackOf()).catch(
      (e: Error) => e,
    );
    expect((err as Error).message).toMatch(/authentication failed/);
    const bad = await importZones(pullOnly, progress, { CDN_BASE_URL: "ftp://nowhere" }, stackOf()).catch(
      (e: Error) => e,
    );
    expect((bad as Error).message).toContain("cdn:baseUrl / CDN_BASE_URL (set in the environment)");
  });

  test("a flag wins over both", async () => {
    const emu = emuRef.get();
    const stack = stackOf({ "cdn:baseUrl": "http://127.0.0.1:9/not-here" });
    const r = await importZones(
      { ...pullOnly, baseUrl: emu.url },
      progress,
      { CDN_BASE_URL: "http://127.0.0.1:9" },
      stack,
    );
    expect(r.counts.pull).toBeGreaterThan(0);
  });

  test("a value the stack refuses names the stack as its source", async () => {
    const err = await importZones(pullOnly, progress, {}, stackOf({ "cdn:apiUserId": "forty-two" })).catch(
      (e: Error) => e,
    );
    expect((err as Error).message).toContain("cdn:apiUserId / CDN_API_USER_ID (set in the stack's config)");
  });
});

describe("the cdnUrl hints", () => {
  test("leave out what the stack has: only the missing key's command", async () => {
    const r = await importZones(pullOnly, progress, {}, stackOf({ "cdn:companyAlias": "acme" }));
    expect(r.deliveryConfig.commands).toEqual(["pulumi config set cdn:cdnDomain <CDN domain, such as netdna-cdn.com>"]);
  });

  test("none when the stack has both", async () => {
    const stack = stackOf({ "cdn:companyAlias": "acme", "cdn:cdnDomain": "cdn.example.net" });
    const r = await importZones(pullOnly, progress, {}, stack);
    expect(r.deliveryConfig.commands).toEqual([]);
  });

  test("the environment's value fills the command of a key the stack lacks", async () => {
    const stack = stackOf({ "cdn:companyAlias": "acme" });
    const r = await importZones(pullOnly, progress, { CDN_CDN_DOMAIN: "cdn.example.net" }, stack);
    expect(r.deliveryConfig).toEqual({ known: true, commands: ["pulumi config set cdn:cdnDomain cdn.example.net"] });
  });
});

describe("reading the stack", () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-stack-config-"));
    fs.mkdirSync(path.join(dir, "project/sub"), { recursive: true });
    fs.writeFileSync(path.join(dir, "project/Pulumi.yaml"), "name: p\nruntime: nodejs\n");
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const answering =
    (calls: { args: string[]; cwd: string }[], r: Partial<ReturnType<PulumiRunner>>): PulumiRunner =>
    (args, cwd) => {
      calls.push({ args, cwd });
      return { status: 0, stdout: "", stderr: "", ...r };
    };

  test("outside a project, pulumi is not run", () => {
    const calls: { args: string[]; cwd: string }[] = [];
    const s = readStackConfig({ cwd: dir, run: answering(calls, {}) });
    expect(calls).toEqual([]);
    expect(s.lookup("cdn:baseUrl")).toBeUndefined();
    expect(s.note).toBeUndefined();
    expect(findProjectDir(path.join(dir, "project/sub"))).toBe(path.join(dir, "project"));
  });

  test("in a project (or below it), the selected stack's config with secrets shown, cdn:* keys only", () => {
    const calls: { args: string[]; cwd: string }[] = [];
    const stdout = JSON.stringify({
      "cdn:baseUrl": { value: "https://api.example", secret: false },
      "cdn:apiKey": { value: "the-key", secret: true },
      "p:other": { value: "x", secret: false },
      "cdn:tags": { objectValue: { a: 1 }, secret: false },
    });
    const s = readStackConfig({ cwd: path.join(dir, "project/sub"), run: answering(calls, { stdout }) });
    expect(calls).toEqual([{ args: ["config", "--json", "--show-secrets"], cwd: path.join(dir, "project/sub") }]);
    expect([s.lookup("cdn:baseUrl"), s.lookup("cdn:apiKey"), s.lookup("p:other")]).toEqual([
      "https://api.example",
      "the-key",
      undefined,
    ]);
    expect(s.note).toBe("read the config of the selected stack (pulumi config): cdn:apiKey, cdn:baseUrl");
    expect(s.note).not.toContain("the-key");
  });

  test("--stack names the stack; a failure gives pulumi's first error line, never a value", () => {
    const calls: { args: string[]; cwd: string }[] = [];
    const s = readStackConfig({
      cwd: path.join(dir, "project"),
      stack: "prod",
      run: answering(calls, { status: 255, stderr: "\nerror: no stack named 'prod' found\nmore\n" }),
    });
    expect(calls[0].args).toEqual(["config", "--json", "--show-secrets", "--stack", "prod"]);
    expect(s.problem).toBe(
      `the config of stack prod of the project in ${path.join(dir, "project")} was not read: error: no stack named 'prod' found`,
    );
    expect(s.lookup("cdn:baseUrl")).toBeUndefined();
  });

  test("no pulumi on PATH is said so", () => {
    const missing = Object.assign(new Error("spawnSync pulumi ENOENT"), { code: "ENOENT" });
    const s = readStackConfig({
      cwd: path.join(dir, "project"),
      run: () => ({ status: null, stdout: "", stderr: "", error: missing }),
    });
    expect(s.problem).toMatch(/was not read: no `pulumi` on PATH$/);
  });

  test("the JSON's string values only", () => {
    expect(parseConfigJson('{"cdn:retries":{"value":"3","secret":false},"cdn:x":{"secret":true}}')).toEqual({
      "cdn:retries": "3",
    });
  });
});
