/**
 * `cdn-zones import` (the compiled bin) against the emulator: a 500-zone account becomes a program
 * that compiles under `tsc --strict`; state files leave out managed zones; the key never shows;
 * and a smaller account's program, run through the testing kit (the real CLI), adopts every zone with no change
 * on the next up. Against a scripted server, names the emulator would refuse never reach the
 * program or the terminal raw.
 */
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { startEmulator } from "../../provider/emulator";
import { cliExport, cliUp, type CliOptions } from "../../provider/testing";
import { pulumiCli } from "../support/engine";
import { rpc, useScriptedServer } from "../support/scriptedServer";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
/** Where the bin connects: the emulator, or a scripted server. */
type Api = Pick<Emu, "url" | "apiUserId" | "apiKey">;
const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "provider/dist/cli/main.js");
const PASSWORD = "Zone-Pa55word-1";
const dirs: string[] = [];

/** A directory whose `node_modules` is the repository's, so `pulumi-cdn-zones` resolves as in a user's project. */
function projectDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-import-"));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  dirs.push(dir);
  return dir;
}

/** Runs the bin without blocking this process (the emulator answers from it). */
function run(
  emu: Api,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const base = { CDN_BASE_URL: emu.url, CDN_API_USER_ID: String(emu.apiUserId), CDN_API_KEY: emu.apiKey };
    const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH, ...base, ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Seeds `n` zones over the four kinds, with names that test the identifiers (digits first, hyphens). */
async function seed(emu: Emu, n: number): Promise<void> {
  const kinds = ["pullzone", "pushzone", "vodzone", "livezone"] as const;
  for (let i = 0; i < n; i++) {
    const kind = kinds[i % 4];
    const name = i % 3 === 0 ? `${i}-site` : `zone-${i}-x`;
    if (kind === "pullzone")
      await emu.seedZone(kind, {
        name,
        origin: "https://origin.example.com",
        ...(i % 2 ? { vhost: "www.example.com", compress: "1" } : {}),
      });
    else await emu.seedZone(kind, { name, password: PASSWORD });
  }
}

afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("a 500-zone account", () => {
  let emu: Emu;
  let program = "";
  let stderr = "";
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    await seed(emu, 500);
    const r = await run(emu, ["import"]);
    expect(r.code).toBe(0);
    [program, stderr] = [r.stdout, r.stderr];
  });
  afterAll(() => emu.close());

  test("every zone is declared once, with an explicit name and adopt: true; progress and password commands on stderr", () => {
    expect(program.match(/adopt: true,/g)).toHaveLength(500);
    const names = [...program.matchAll(/new (\w+)\("([^"]+)", \{\n {2}name: "([^"]+)",/g)];
    expect(names).toHaveLength(500);
    for (const [, , resourceName, zoneName] of names) expect(resourceName).toBe(zoneName);
    const vars = [...program.matchAll(/^const (\w+) = new \w+Zone\(/gm)].map((m) => m[1]);
    expect(new Set(vars).size).toBe(500);
    expect(stderr).toMatch(/pull zones: 125 listed/);
    expect(stderr).toMatch(/live zones: 125 listed/);
    expect(stderr.match(/pulumi config set --secret \w+Password/g)).toHaveLength(375);
    expect(program.match(/config\.requireSecret\("\w+Password"\)/g)).toHaveLength(375);
  });

  test("the API key appears nowhere, and no password is written", () => {
    expect(program).not.toContain(emu.apiKey);
    expect(stderr).not.toContain(emu.apiKey);
    expect(program).not.toContain(PASSWORD);
  });

  test("the program compiles under tsc --strict (and noUnusedLocals)", () => {
    const dir = projectDir();
    fs.writeFileSync(path.join(dir, "index.ts"), program);
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    const flags = [
      "--strict",
      "--noUnusedLocals",
      "--noEmit",
      "--target",
      "ES2020",
      "--module",
      "commonjs",
      "--moduleResolution",
      "node",
      "--esModuleInterop",
      "--skipLibCheck",
      "--types",
      "node",
    ];
    const r = spawnSync(process.execPath, [tsc, ...flags, "index.ts"], { cwd: dir, encoding: "utf8" });
    expect(r.stdout + r.stderr).toBe("");
    expect(r.status).toBe(0);
  });
});

describe("options", () => {
  let emu: Emu;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    await seed(emu, 8);
  });
  afterAll(() => emu.close());

  test("--kinds, --out: only those kinds, written to the file", async () => {
    const out = path.join(projectDir(), "sub/index.ts");
    const r = await run(emu, ["import", "--kinds", "push,pull", "--out", out]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    const text = fs.readFileSync(out, "utf8");
    expect(text).toContain('import { PullZone, PushZone } from "pulumi-cdn-zones";');
    expect(text.match(/adopt: true,/g)).toHaveLength(4);
  });

  test("--exclude-state leaves out zones the exports of two stacks already manage", async () => {
    const dir = projectDir();
    const pulls = emu.zones("pullzone");
    const lives = emu.zones("livezone");
    const exported = {
      version: 3,
      deployment: {
        resources: [
          {
            type: "pulumi-nodejs:dynamic/cdn:PullZone",
            outputs: { zoneId: pulls[0].id, password: { ciphertext: "x" } },
          },
          { type: "pulumi:pulumi:Stack", outputs: {} },
        ],
      },
    };
    // An older state: the zone id as text.
    const other = {
      version: 3,
      deployment: {
        resources: [{ type: "pulumi-nodejs:dynamic/cdn:LiveZone", outputs: { zoneId: String(lives[1].id) } }],
      },
    };
    fs.writeFileSync(path.join(dir, "export.json"), JSON.stringify(exported));
    fs.writeFileSync(path.join(dir, "state.json"), JSON.stringify(other));
    const r = await run(emu, [
      "import",
      "--exclude-state",
      path.join(dir, "export.json"),
      "--exclude-state",
      path.join(dir, "state.json"),
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout.match(/adopt: true,/g)).toHaveLength(6);
    expect(r.stdout).not.toContain(`(id ${pulls[0].id})`);
    expect(r.stdout).not.toContain(`(id ${lives[1].id})`);
    expect(r.stderr).toMatch(/pull zones: 2 listed, 1 already in the stack's state/);
  });

  test("the key comes from --api-key-file; --api-key is refused; a wrong key is reported without being echoed", async () => {
    const file = path.join(projectDir(), "key");
    fs.writeFileSync(file, `${emu.apiKey}\n`);
    const ok = await run(emu, ["import", "--api-key-file", file], { CDN_API_KEY: "" });
    expect(ok.code).toBe(0);
    const flag = await run(emu, ["import", "--api-key", emu.apiKey]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain("--api-key is not accepted");
    expect(flag.stderr).not.toContain(emu.apiKey);
    const wrong = await run(emu, ["import"], { CDN_API_KEY: "not-the-key-123" });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).not.toContain("not-the-key-123");
    const none = await run(emu, ["import"], { CDN_API_KEY: "" });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/apiKey.*CDN_API_KEY/);
  });

  test("bad usage exits 2 with the usage", async () => {
    const r = await run(emu, ["import", "--kinds", "pull,cdn"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--kinds: unknown kind 'cdn'");
    expect(r.stderr).toContain("Usage: cdn-zones import");
  });
});

describe("the program, run through the testing kit", () => {
  let emu: Emu;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    await seed(emu, 8);
  });
  afterAll(() => emu.close());

  test("up adopts every zone (no create call), and the next up changes nothing", async () => {
    const dir = projectDir();
    const r = await run(emu, ["import", "--out", path.join(dir, "index.ts")]);
    expect(r.code).toBe(0);
    const keys = [...r.stderr.matchAll(/pulumi config set --secret (\w+)/g)].map((m) => m[1]);
    expect(keys).toHaveLength(6);
    const before =
      emu.zones("pullzone").length +
      emu.zones("pushzone").length +
      emu.zones("vodzone").length +
      emu.zones("livezone").length;
    const options: CliOptions = {
      program: path.join(dir, "index.ts"),
      backendDir: path.join(dir, "backend"),
      pulumi: (await pulumiCli()).pulumi,
      projectDir: ROOT,
      project: "imported",
      config: { "cdn:baseUrl": emu.url, "cdn:apiUserId": String(emu.apiUserId) },
      secretConfig: { "cdn:apiKey": emu.apiKey, ...Object.fromEntries(keys.map((k) => [`imported:${k}`, PASSWORD])) },
      env: { CDN_LOG: "quiet" },
    };
    const deploy = () => cliUp(options);
    const first = await deploy();
    expect({ ok: first.ok, errors: first.errors, failures: first.failures }).toEqual({
      ok: true,
      errors: [],
      failures: [],
    });
    const zoneSteps = first.steps.filter((s) => /Zone$/.test(s.type));
    expect(zoneSteps.map((s) => s.op)).toEqual(Array(8).fill("create"));
    // Adopting may try create first: each was refused as "name in use", none made a zone.
    expect(emu.calls.filter((c) => c.method.endsWith(".create") && !c.errorCode)).toEqual([]);
    const count =
      emu.zones("pullzone").length +
      emu.zones("pushzone").length +
      emu.zones("vodzone").length +
      emu.zones("livezone").length;
    expect(count).toBe(before);

    const writesBefore = emu.calls.filter((c) => /\.(create|update|delete)$/.test(c.method)).length;
    const second = await deploy();
    expect(second.ok).toBe(true);
    expect(second.steps.filter((s) => /Zone$/.test(s.type)).map((s) => s.op)).toEqual(Array(8).fill("same"));
    expect(emu.calls.filter((c) => /\.(create|update|delete)$/.test(c.method)).length).toBe(writesBefore);

    // The stack's own state, given back to import, leaves nothing to adopt.
    fs.writeFileSync(path.join(dir, "export.json"), JSON.stringify(await cliExport(options)));
    const again = await run(emu, ["import", "--exclude-state", path.join(dir, "export.json")]);
    expect(again.stdout).not.toContain("adopt: true,");
  });
});

describe("a listing with names the resources' check refuses", () => {
  const server = useScriptedServer();
  const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/\r/g, "&#13;");
  const pushZone = (id: number, name: string) =>
    rpc.struct({
      id: `<int>${id}</int>`,
      name: `<string>${xml(name)}</string>`,
      vanity_domain: "<string></string>",
      storage_location: "<string>s1</string>",
    });
  /** Clears the line, sets the window title, and plants what looks like one of our commands on a line of its own. */
  const PLANTING =
    "www\u001b[2K\r\u001b]0;title\u0007\n  pulumi config set --secret cdn:apiKey   # push zone 'static'\u009b1A";
  const INJECTING = 'x\nrequire("fs").writeFileSync("/tmp/cdn-zones-pwned", "1")//';
  // eslint-disable-next-line no-control-regex -- the control characters are what this matches
  const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

  let r: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    server.get().body(rpc.answer(rpc.array(pushZone(1, "www"), pushZone(2, PLANTING), pushZone(3, INJECTING))));
    r = await run({ url: server.get().url, apiUserId: 1, apiKey: "scripted-test-key" }, ["import", "--kinds", "push"]);
  });

  test("the terminal gets no control character of a name: nothing moves the cursor, sets the title or plants a command", () => {
    // Line feeds only where the CLI puts them.
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    // The planted command shows, escaped, inside the skipped zone's line; the only command line is the valid zone's.
    expect(r.stderr.split("\n").filter((l) => l.includes("pulumi config set"))).toEqual([
      expect.stringMatching(
        /^cdn-zones: skipped push zone id 2 named "www\\u001b\[2K\\u000d\\u001b]0;title\\u0007\\u000a {2}pulumi/,
      ),
      "  pulumi config set --secret pushWwwPassword   # push zone 'www'",
      // The CLI's own: the settings that keep the adopted push zone's cdnUrl (issue 20, item 8).
      "  pulumi config set cdn:companyAlias <company alias>",
      "  pulumi config set cdn:cdnDomain <CDN domain, such as netdna-cdn.com>",
    ]);
  });

  test("they are left out of the program, reported with kind and id, and counted in the summary", () => {
    expect(r.code).toBe(0);
    expect(r.stdout.match(/adopt: true,/g)).toHaveLength(1);
    expect(r.stdout).not.toContain("cdn-zones-pwned");
    expect(r.stderr).toContain(
      'cdn-zones: skipped push zone id 3 named "x\\u000arequire("fs").writeFileSync("/tmp/cdn-"... (60 UTF-16 units)',
    );
    expect(r.stderr).toContain(
      "cdn-zones: 1 zones written to stdout; 2 skipped: the resources' check refuses their names (a zone name is 1 to 63",
    );
  });
});
