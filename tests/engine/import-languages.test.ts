/**
 * `cdn-zones import --language yaml | python` through the real CLI: the program it writes for an existing account,
 * with the provider plugin (docs/languages/), adopts every zone on the first `up` (no zone made, the passwords from
 * the stack's secret config set on the zones) and the next `up` changes nothing. How server text is escaped in
 * each language is tested in tests/unit/cli-escape.test.ts.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk } from "../support/engine";
import { PLUGIN_DIR, pluginOps } from "../support/plugin";
import { pythonVenv } from "../support/python";

// The Python program needs the generated SDK and `pulumi` from PyPI (cached after the first run).
jest.setTimeout(600_000);

const emu = useEmulator();
const BIN = path.resolve(__dirname, "../../provider/dist/cli/main.js");
const PLUGINS = ["plugins:", "  providers:", "    - name: cdn", `      path: ${PLUGIN_DIR}`].join("\n");
const projects: EngineProject[] = [];
afterAll(() => projects.forEach((p) => p.dispose()));

/** Runs `cdn-zones import` against the emulator; returns the program it wrote on stdout. */
function importProgram(language: string): Promise<string> {
  const e = emu.get();
  const env = {
    PATH: process.env.PATH,
    CDN_BASE_URL: e.url,
    CDN_API_USER_ID: String(e.apiUserId),
    CDN_API_KEY: e.apiKey,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "import", "--language", language], { env, cwd: os.tmpdir() });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`import exited ${code}: ${err}`))));
  });
}

/** Seeds a pull zone with a vhost and a push zone with a password; returns both. */
async function seedAccount(suffix: string) {
  const pull = await emu.get().seedZone("pull", {
    name: `legacy-www-${suffix}`,
    origin: "https://legacy.example.com",
    vhost: "www.example.com",
  });
  const push = await emu.get().seedZone("push", { name: `static-${suffix}`, password: "Old-pw-1" });
  return { pull, push };
}

const zoneCount = () => ["pull", "push", "vod", "live"].reduce((n, k) => n + emu.get().zones(k as "pull").length, 0);

/** Sets each password the program reads (`<variable>Password`), then up twice: adopted, then no change. */
async function adoptThenNoChange(p: EngineProject, program: string, zones: Awaited<ReturnType<typeof seedAccount>>) {
  projects.push(p);
  const keys = [...new Set([...program.matchAll(/\b(push\w+Password)\b/g)].map((m) => m[1]))];
  expect(keys).toHaveLength(1);
  await p.must(["config", "set", "--secret", keys[0], "New-pw-22"]);
  const before = zoneCount();
  const r = expectOk(await p.up());
  expect(pluginOps(r.steps)).toEqual([`create ${zones.pull.name}`, `create ${zones.push.name}`]);
  expect(zoneCount()).toBe(before); // adopted, none made
  expect(emu.get().zoneByName("pull", zones.pull.name)?.vhost).toBe("www.example.com");
  expect(emu.get().passwordMatches("push", zones.push.id, "New-pw-22")).toBe(true);
  expect(p.allStateText()).not.toContain("New-pw-22");
  const ids = (await p.outputs()).zoneIds as Record<string, number>;
  expect(Object.values(ids).sort()).toEqual([zones.pull.id, zones.push.id].sort());
  const again = expectOk(await p.up(undefined, ["--expect-no-changes"]));
  expect(pluginOps(again.steps).every((s) => s.startsWith("same "))).toBe(true);
}

test("--language yaml writes a Pulumi YAML program that adopts the account's zones", async () => {
  await emu.get().reset();
  const zones = await seedAccount("y");
  const program = await importProgram("yaml");
  expect(program).toMatch(/^name: cdn-zones\nruntime: yaml\n/m);
  expect(program).toContain(`type: cdn:index:PullZone`);
  const body = program.replace(/^name: .*\n/m, "").replace("runtime: yaml\n", `runtime: yaml\n${PLUGINS}\n`);
  const p = await EngineProject.create(emu.get(), { projectYaml: body });
  await adoptThenNoChange(p, program, zones);
});

test("--language python writes a Python program over the generated SDK that adopts the account's zones", async () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-import-py-"));
  try {
    await emu.get().reset();
    const zones = await seedAccount("p");
    const program = await importProgram("python");
    expect(program).toContain("import pulumi_cdn as cdn");
    const venv = pythonVenv(work);
    const project = ["runtime:", "  name: python", "  options:", `    virtualenv: ${venv}`, PLUGINS, ""].join("\n");
    const p = await EngineProject.create(emu.get(), { projectYaml: project, files: { "__main__.py": program } });
    await adoptThenNoChange(p, program, zones);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
});
