/**
 * The provider plugin from a JavaScript program through the generated Node.js SDK (scripts/generate-sdks.js,
 * compiled with tsc, installed in the program's node_modules as `@pulumi-cdn-zones/cdn`), through the real CLI:
 * up of a zone of every kind, a no-op up, destroy. The dynamic resources stay the TypeScript users' entry; this is
 * the plugin's (docs/languages/typescript.md).
 */
import { execFileSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk } from "../support/engine";
import { PLUGIN_DIR, pluginOps } from "../support/plugin";

const { generateSdks } = require("../../scripts/generate-sdks.js") as {
  generateSdks(out: string, languages: string[], progress?: (l: string) => void): Record<string, string>;
};

// The first run builds the SDK generator (about two minutes).
jest.setTimeout(600_000);

const ROOT = path.resolve(__dirname, "../..");
const PROGRAM = `const cdn = require("@pulumi-cdn-zones/cdn");
const site = new cdn.PullZone("site", { origin: "https://origin.example.com" });
const assets = new cdn.PushZone("assets", { password: "push-secret-1" });
const videos = new cdn.VodZone("videos", { password: "vod-secret-1" });
const cam = new cdn.LiveZone("cam", { password: "live-secret-1" });
exports.zones = { site: site.zoneId, assets: assets.zoneId, videos: videos.zoneId, cam: cam.zoneId };
exports.pullZones = cdn.getPullZonesOutput({}).zones.apply((zs) => zs.map((z) => z.name));
`;

const emu = useEmulator();
let p: EngineProject;
let work: string;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-ts-sdk-"));
  const sdk = generateSdks(work, ["nodejs"], () => undefined).nodejs;
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(sdk, "node_modules"), "dir");
  execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "."], { cwd: sdk });
  // What the SDK's package publishes: its compiled folder with its package.json.
  const manifest = JSON.parse(fs.readFileSync(path.join(sdk, "package.json"), "utf8"));
  fs.writeFileSync(path.join(sdk, "bin/package.json"), JSON.stringify({ ...manifest, main: "index.js" }));
  const project = ["runtime:", "  name: nodejs", "  options:", "    typescript: false", "plugins:", "  providers:"];
  project.push("    - name: cdn", `      path: ${PLUGIN_DIR}`, "main: index.js", "");
  p = await EngineProject.create(emu.get(), { projectYaml: project.join("\n"), files: { "index.js": PROGRAM } });
  // The program's own node_modules: the workspace's modules, and the SDK where npm would put it.
  const modules = path.join(p.dir, "node_modules");
  fs.rmSync(modules);
  fs.mkdirSync(path.join(modules, "@pulumi-cdn-zones"), { recursive: true });
  for (const entry of fs.readdirSync(path.join(ROOT, "node_modules")))
    if (!entry.startsWith(".")) fs.symlinkSync(path.join(ROOT, "node_modules", entry), path.join(modules, entry));
  fs.symlinkSync(path.join(sdk, "bin"), path.join(modules, "@pulumi-cdn-zones/cdn"), "dir");
});
afterAll(() => {
  p?.dispose();
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("a zone of every kind from the generated Node.js SDK: up, a no-op up, destroy", async () => {
  const up = expectOk(await p.up());
  expect(pluginOps(up.steps)).toEqual(["create assets", "create cam", "create site", "create videos"]);
  const out = (await p.outputs()) as unknown as { zones: Record<string, number>; pullZones: string[] };
  expect(
    emu
      .get()
      .zones("live")
      .map((z) => z.id),
  ).toEqual([out.zones.cam]);
  expect(p.allStateText()).not.toContain("push-secret-1");
  const noop = expectOk(await p.up(undefined, ["--expect-no-changes"]));
  expect(pluginOps(noop.steps)).toEqual(["same assets", "same cam", "same site", "same videos"]);
  // The function ran before the zones existed in the first up (nothing orders it after them); now it lists the site.
  expect(((await p.outputs()) as unknown as { pullZones: string[] }).pullZones).toEqual([
    emu.get().zones("pull")[0].name,
  ]);
  const d = expectOk(await p.destroy());
  expect(pluginOps(d.steps)).toEqual(["delete assets", "delete cam", "delete site", "delete videos"]);
  expect(emu.get().zones("live")).toEqual([]);
  expect(emu.get().zones("pull")).toHaveLength(1);
});
