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

drop = os.environ.get("CDN_TEST_DROP", "").split(",")
zones = {
    "site": lambda: cdn.PullZone("site", origin="https://origin.example.com", vhost="www.example.com"),
    "assets": lambda: cdn.PushZone("assets", password="push-secret-1"),
    "videos": lambda: cdn.VodZone("videos", name="videos", password="vod-secret-1"),
    "cam": lambda: cdn.LiveZone("cam", password="live-secret-1"),
}
made = {name: make() for name, make in zones.items() if name not in drop}
for name, zone in made.items():
    pulumi.export(name, {"zoneId": zone.zone_id, "name": zone.name})
pulumi.export("zoneIds", {name: zone.zone_id for name, zone in made.items()})
pulumi.export("pullZones", cdn.get_pull_zones_output().zones.apply(lambda zs: [z.name for z in zs]))
if "site" in made and os.environ.get("CDN_TEST_LOOKUP"):
    pulumi.export("siteLookup", cdn.get_zone_output(kind="pull", name=made["site"].name).zone_id.apply(repr))
pulumi.export("unmanagedIds", cdn.get_unmanaged_zones_output(managed=[]).zones.apply(lambda zs: [repr(z.zone_id) for z in zs]))
`;

/** A zone the check refuses, registered first, while many others are still being registered. */
const REFUSED = `import pulumi_cdn as cdn

bad = cdn.PullZone("bad", origin="ftp://files.example.com")
for i in range(80):
    cdn.PullZone(f"z{i}", origin="https://origin.example.com")
bad.zone_id.apply(lambda i: print(i))
`;

/** Every name clash at once: one in use, one in another case, one declared twice (tests/engine/plugin-gate.test.ts). */
const CLASHES = `import pulumi_cdn as cdn

cdn.PullZone("site", origin="https://origin.example.com")
cdn.PullZone("a", name="taken", origin="https://origin.example.com")
cdn.PullZone("b", name="shop", origin="https://origin.example.com")
cdn.PullZone("c", name="twin", origin="https://origin.example.com")
cdn.PullZone("d", name="twin", origin="https://origin.example.com")
cdn.PushZone("files", password="Files-pw-1")
`;

/** Exports `siteLookup`, the getZone of the site's name: not in the tests that rename or drop the site. */
const LOOKUP = { env: { CDN_TEST_LOOKUP: "1" } };

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
  const r = expectOk(await p.up(undefined, [], LOOKUP));
  expect(pluginOps(r.steps)).toEqual(["create assets", "create cam", "create site", "create videos"]);
  const out = await p.outputs();
  expect(out.site.name).toMatch(/^site-[a-z0-9]{7}$/);
  expect(emu.get().zoneByName("pull", String(out.site.name))).toMatchObject({ vhost: "www.example.com" });
  expect(emu.get().zoneByName("live", String(out.cam.name))?.id).toBe(out.cam.zoneId);
  for (const secret of ["push-secret-1", "vod-secret-1", "live-secret-1"])
    expect(p.allStateText()).not.toContain(secret);
});

test("a no-op up changes nothing; the function's answer is the account's", async () => {
  const r = expectOk(await p.up(undefined, ["--expect-no-changes"], LOOKUP));
  expect(pluginOps(r.steps)).toEqual(["same assets", "same cam", "same site", "same videos"]);
  const out = (await p.outputs()) as Record<string, unknown>;
  expect(out.pullZones).toEqual([(out.site as { name: string }).name]);
  // Zone ids reach Python as integers (the schema types them): `12`, never `12.0`.
  expect(out.siteLookup).toBe(String((out.site as { zoneId: number }).zoneId));
  expect(out.unmanagedIds).toEqual(expect.arrayContaining([expect.stringMatching(/^\d+$/)]));
  expect((out.unmanagedIds as string[]).every((id) => /^\d+$/.test(id))).toBe(true);
});

test("a zone removed from the program previews as `delete [retain]` when the API cannot delete its kind", async () => {
  // The SDK registers pull, push and VOD zones with retainOnDelete, as the package's own classes do (issue 40).
  const r = expectOk(await p.preview(undefined, [], { env: { CDN_TEST_DROP: "site,cam" } }));
  expect(pluginOps(r.steps)).toEqual(["delete cam", "delete site", "same assets", "same videos"]);
  const urn = (name: string) => r.steps.find((s) => s.name === name)!.urn;
  expect(r.olds[urn("site")]?.retainOnDelete).toBe(true);
  expect(r.olds[urn("cam")]?.retainOnDelete).toBe(false);
  expect(r.output).toMatch(/cdn:index:PullZone site delete\[retain\]|- .*site.*\[retain\]/);
});

test("drift made in the control panel: refresh records it, up puts it back", async () => {
  const site = emu.get().zones("pull")[0];
  await emu.get().editZone("pull", site.id, { vhost: "other.example.com" });
  const refreshed = expectOk(await p.refresh());
  expect(pluginOps(refreshed.steps)).toContain("update site");
  expectOk(await p.up());
  expect(emu.get().zones("pull")[0].vhost).toBe("www.example.com");
});

test("a zone renamed by hand: the drift check exits 7 in a few lines; the ids the program exports stay known", async () => {
  const site = emu.get().zones("pull")[0];
  // A second pull zone, so its own vanityIp proves the rename (alone, nothing does: docs/resources.md, "Zone identity").
  const other = await emu.get().seedZone("pull", { name: "neighbour", origin: "https://origin.example.com" });
  await emu.get().editZone("pull", site.id, { name: "renamed-by-hand" });
  const r = await p.preview(undefined, ["--refresh", "--expect-no-changes", "--diff"]);
  expect(r.code).toBe(7);
  expect(r.output).toContain(`is now named 'renamed-by-hand' in the account`);
  // The update's preview keeps the zone's id: the exported dict of ids is not shown changed (one line per zone of the
  // program, 277 lines for 250 zones: issue 40, point 5).
  expect(r.output).not.toContain("zoneIds");
  expectOk(await p.up(undefined, ["--refresh"]));
  expect(
    emu
      .get()
      .zones("pull")
      .find((z) => z.id === site.id)?.name,
  ).toBe(site.name);
  await emu.get().deleteZone("pull", other.id);
});

test("the live zone removed from the program is deleted; destroy leaves the other kinds in the account", async () => {
  const r = expectOk(await p.up(undefined, [], { env: { CDN_TEST_DROP: "cam" } }));
  expect(pluginOps(r.steps)).toContain("delete cam");
  expect(emu.get().zones("live")).toEqual([]);
  const d = expectOk(await p.destroy());
  expect(pluginOps(d.steps)).toEqual(["delete assets", "delete site", "delete videos"]);
  // Retained by the SDK's option: the engine drops them from the state without asking the provider.
  for (const s of d.steps.filter((x) => x.type.startsWith("cdn:index:")))
    expect(d.olds[s.urn]?.retainOnDelete).toBe(true);
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

test("a preview of a Python program fails on every name clash in one run, naming each; nothing is written", async () => {
  await emu.get().reset();
  await emu.get().seedZone("pull", { name: "taken", origin: "https://origin.example.com" });
  await emu.get().seedZone("pull", { name: "Shop", origin: "https://origin.example.com" });
  const project = ["runtime:", "  name: python", "  options:", `    virtualenv: ${venv}`, PLUGINS_YAML, ""].join("\n");
  const q = await EngineProject.create(emu.get(), { projectYaml: project, files: { "__main__.py": CLASHES } });
  others.push(q);
  const r = await q.preview();
  expect(r.code).not.toBe(0);
  expect(r.output).toContain("3 zones of this program cannot be created as declared:");
  expect(r.output).toMatch(/- pull zone 'taken' \(id \d+\) already exists in the account/);
  expect(r.output).toMatch(/the account holds pull zone 'Shop' \(id \d+\), whose name differs only in case/);
  // In the order the engine checked them (the Python SDK registers concurrently).
  expect(r.output).toMatch(
    /- pull zone 'twin' is declared by two resources, '[cd]' and '[cd]': one zone, one resource/,
  );
  expect(emu.get().calls.filter((c) => c.method.endsWith(".create"))).toEqual([]);
});

test("a failed check ends the run with its error: no KeyboardInterrupt traceback from the interrupted program", async () => {
  // Pulumi's Python host interrupts the program when the engine ends the deployment (main.go, cmd.Cancel); the SDK
  // ends it quietly instead of Python's ~25-line traceback, printed twice (issue 40, point 5).
  const project = ["runtime:", "  name: python", "  options:", `    virtualenv: ${venv}`, PLUGINS_YAML, ""].join("\n");
  const q = await EngineProject.create(emu.get(), { projectYaml: project, files: { "__main__.py": REFUSED } });
  others.push(q);
  const r = await q.preview();
  expect(r.code).not.toBe(0);
  expect(r.output).toContain("cdn:index:PullZone resource 'bad': property origin value {ftp://files.example.com}");
  expect(r.output).not.toMatch(/KeyboardInterrupt|Traceback/);
});
