/**
 * The provider plugin's programs for the engine tests: a Pulumi YAML program of zones (the project file is the
 * program), the plugin found through the project's `plugins: providers:` (provider/bin/pulumi-resource-cdn, the
 * built package), and the steps on its resources.
 */
import { spawn } from "child_process";
import * as os from "os";
import * as path from "path";
import type { Emulator } from "../../provider/emulator";
import { expectOk, type EngineProject, type EngineStep } from "./engine";

export const PLUGIN_DIR = path.resolve(__dirname, "../../provider/bin");
const CLI_BIN = path.resolve(__dirname, "../../provider/dist/cli/main.js");

/** A resource of a YAML program: its type's last part, name, properties and options. */
export interface YamlResource {
  type: "PullZone" | "PushZone" | "VodZone" | "LiveZone" | "CachePurge";
  name: string;
  properties?: Record<string, unknown>;
  options?: Record<string, unknown>;
}

/**
 * A Pulumi.yaml (after its `name:`) declaring `resources`, each exported as `{ zoneId, name }` (`purgeCount` for a
 * purge), with `extra` appended under `resources:` as it is (the code `pulumi import` wrote), and `more` after.
 */
export function yamlProgram(resources: YamlResource[], extra = "", more = ""): string {
  const lines = [
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: cdn",
    `      path: ${PLUGIN_DIR}`,
    "resources:",
  ];
  for (const r of resources) {
    lines.push(`  ${r.name}:`, `    type: cdn:index:${r.type}`);
    if (r.properties) lines.push(`    properties: ${JSON.stringify(r.properties)}`);
    if (r.options) lines.push(`    options: ${JSON.stringify(r.options)}`);
  }
  if (extra) lines.push(extra.replace(/\s+$/, ""));
  lines.push("outputs:");
  for (const r of resources) {
    const fields = r.type === "CachePurge" ? ["purgeCount"] : ["zoneId", "name"];
    lines.push(`  ${r.name}:`, ...fields.map((f) => `    ${f}: \${${r.name}.${f}}`));
  }
  return `${lines.join("\n")}\n${more}`;
}

/** The engine's steps on the plugin's resources as `<op> <name>`, sorted. */
export const pluginOps = (steps: EngineStep[]): string[] =>
  steps
    .filter((s) => s.type.startsWith("cdn:index:"))
    .map((s) => `${s.op} ${s.name}`)
    .sort();

/** The resources block of the code `pulumi import --out` wrote (a YAML program), without its `resources:` line. */
export function importedResources(code: string): string {
  const at = code.indexOf("resources:\n");
  if (at < 0) throw new Error(`no resources in the imported code:\n${code}`);
  return code.slice(at + "resources:\n".length);
}

/** Runs `cdn-zones import --language <language>` against `emu`; returns the program it wrote on stdout. */
export function importProgram(emu: Emulator, language: string): Promise<string> {
  const env = {
    PATH: process.env.PATH,
    CDN_BASE_URL: emu.url,
    CDN_API_USER_ID: String(emu.apiUserId),
    CDN_API_KEY: emu.apiKey,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI_BIN, "import", "--language", language], { env, cwd: os.tmpdir() });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (err += d));
    child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`import exited ${code}: ${err}`))));
  });
}

/** The plugin found through the project's `plugins: providers:`, as Pulumi.yaml lines. */
export const PLUGINS_YAML = ["plugins:", "  providers:", "    - name: cdn", `      path: ${PLUGIN_DIR}`].join("\n");

/** An account of a pull zone and a push zone (with a password), for an imported program to adopt. */
export async function seedForImport(emu: Emulator, suffix: string) {
  const pull = await emu.seedZone("pull", {
    name: `legacy-www-${suffix}`,
    origin: "https://legacy.example.com",
    vhost: "www.example.com",
  });
  const push = await emu.seedZone("push", { name: `static-${suffix}`, password: "Old-pw-1" });
  return { pull, push };
}

/**
 * The program `cdn-zones import` wrote, run by `p`: its push zone's password set in the stack's secret config, the
 * first `up` adopts both zones (none made, the password set), and the next `up` changes nothing.
 */
export async function expectImportAdopts(
  emu: Emulator,
  p: EngineProject,
  program: string,
  zones: Awaited<ReturnType<typeof seedForImport>>,
): Promise<void> {
  const keys = [...new Set([...program.matchAll(/\b(push\w+Password)\b/g)].map((m) => m[1]))];
  expect(keys).toHaveLength(1);
  await p.must(["config", "set", "--secret", keys[0], "New-pw-22"]);
  const count = () => ["pull", "push", "vod", "live"].reduce((n, k) => n + emu.zones(k as "pull").length, 0);
  const before = count();
  const r = expectOk(await p.up());
  expect(pluginOps(r.steps)).toEqual([`create ${zones.pull.name}`, `create ${zones.push.name}`]);
  expect(count()).toBe(before); // adopted, none made
  expect(emu.zoneByName("pull", zones.pull.name)?.vhost).toBe("www.example.com");
  expect(emu.passwordMatches("push", zones.push.id, "New-pw-22")).toBe(true);
  expect(p.allStateText()).not.toContain("New-pw-22");
  const ids = (await p.outputs()).zoneIds as unknown as Record<string, number>;
  expect(Object.values(ids).sort()).toEqual([zones.pull.id, zones.push.id].sort());
  const again = expectOk(await p.up(undefined, ["--expect-no-changes"]));
  expect(pluginOps(again.steps).every((s) => s.startsWith("same "))).toBe(true);
}
