/**
 * The provider plugin from a Python program, through the real CLI: the generated Python SDK (`pulumi_cdn`) and
 * `pulumi` from PyPI installed with pip into a virtualenv, Pulumi's own Python program runner (started by the
 * stand-in host of tools/pulumi-cli/language-host-python.js), the plugin's zones of every kind and a function.
 * Up, a no-op up, drift seen by refresh and repaired, the live zone deleted, destroy; then the Python program
 * `cdn-zones import --language python` writes adopts an account's zones.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk } from "../support/engine";
import { expectImportAdopts, importProgram, PLUGINS_YAML, pluginOps, seedForImport } from "../support/plugin";
import { pythonVenv } from "../support/python";

// The first run builds the SDK generator (about two minutes) and downloads the wheels from PyPI.
jest.setTimeout(600_000);

const PROGRAM = `import os
import pulumi
import pulumi_cdn as cdn

site = cdn.PullZone("site", origin="https://origin.example.com", vhost="www.example.com")
assets = cdn.PushZone("assets", password="push-secret-1")
videos = cdn.VodZone("videos", name="videos", password="vod-secret-1")
zones = [site, assets, videos]
if os.environ.get("CDN_TEST_LIVE") != "0":
    zones.append(cdn.LiveZone("cam", password="live-secret-1"))
for zone in zones:
    pulumi.export(zone._name, {"zoneId": zone.zone_id, "name": zone.name})
pulumi.export("pullZones", cdn.get_pull_zones_output().zones.apply(lambda zs: [z.name for z in zs]))
pulumi.export("siteLookup", cdn.get_zone_output(kind="pull", name=site.name).zone_id.apply(repr))
pulumi.export("unmanagedIds", cdn.get_unmanaged_zones_output(managed=[]).zones.apply(lambda zs: [repr(z.zone_id) for z in zs]))
`;

const emu = useEmulator();
let p: EngineProject;
let work: string;
let venv: string;
const others: EngineProject[] = [];

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-python-"));
  venv = pythonVenv(work);
  const project = ["runtime:", "  name: python", "  options:", `    virtualenv: ${venv}`, PLUGINS_YAML, ""];
  p = await EngineProject.create(emu.get(), { projectYaml: project.join("\n"), files: { "__main__.py": PROGRAM } });
});
afterAll(() => {
  p?.dispose();
  others.forEach((o) => o.dispose());
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

test("up creates a zone of every kind from Python; the passwords are secrets in the state", async () => {
  const r = expectOk(await p.up());
  expect(pluginOps(r.steps)).toEqual(["create assets", "create cam", "create site", "create videos"]);
  const out = await p.outputs();
  expect(out.site.name).toMatch(/^site-[a-z0-9]{7}$/);
  expect(emu.get().zoneByName("pull", String(out.site.name))).toMatchObject({ vhost: "www.example.com" });
  expect(emu.get().zoneByName("live", String(out.cam.name))?.id).toBe(out.cam.zoneId);
  for (const secret of ["push-secret-1", "vod-secret-1", "live-secret-1"])
    expect(p.allStateText()).not.toContain(secret);
});

test("a no-op up changes nothing; the function's answer is the account's", async () => {
  const r = expectOk(await p.up(undefined, ["--expect-no-changes"]));
  expect(pluginOps(r.steps)).toEqual(["same assets", "same cam", "same site", "same videos"]);
  const out = (await p.outputs()) as Record<string, unknown>;
  expect(out.pullZones).toEqual([(out.site as { name: string }).name]);
  // Zone ids reach Python as integers (the schema types them): `12`, never `12.0`.
  expect(out.siteLookup).toBe(String((out.site as { zoneId: number }).zoneId));
  expect(out.unmanagedIds).toEqual(expect.arrayContaining([expect.stringMatching(/^\d+$/)]));
  expect((out.unmanagedIds as string[]).every((id) => /^\d+$/.test(id))).toBe(true);
});

test("drift made in the control panel: refresh records it, up puts it back", async () => {
  const site = emu.get().zones("pull")[0];
  await emu.get().editZone("pull", site.id, { vhost: "other.example.com" });
  const refreshed = expectOk(await p.refresh());
  expect(pluginOps(refreshed.steps)).toContain("update site");
  expectOk(await p.up());
  expect(emu.get().zones("pull")[0].vhost).toBe("www.example.com");
});

test("the live zone removed from the program is deleted; destroy leaves the other kinds in the account", async () => {
  const r = expectOk(await p.up(undefined, [], { env: { CDN_TEST_LIVE: "0" } }));
  expect(pluginOps(r.steps)).toContain("delete cam");
  expect(emu.get().zones("live")).toEqual([]);
  const d = expectOk(await p.destroy());
  expect(pluginOps(d.steps)).toEqual(["delete assets", "delete site", "delete videos"]);
  expect(d.output.match(/\) stays in the account and keeps serving/g)?.length).toBeGreaterThanOrEqual(3);
  expect(emu.get().zones("pull")).toHaveLength(1);
});

test("cdn-zones import --language python writes a program over the SDK that adopts the account's zones", async () => {
  await emu.get().reset();
  const zones = await seedForImport(emu.get(), "p");
  const program = await importProgram(emu.get(), "python");
  expect(program).toContain("import pulumi_cdn as cdn");
  const project = ["runtime:", "  name: python", "  options:", `    virtualenv: ${venv}`, PLUGINS_YAML, ""].join("\n");
  const q = await EngineProject.create(emu.get(), { projectYaml: project, files: { "__main__.py": program } });
  others.push(q);
  await expectImportAdopts(emu.get(), q, program, zones);
});
