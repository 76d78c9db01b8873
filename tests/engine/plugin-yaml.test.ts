/**
 * The provider plugin through the real CLI, from a Pulumi YAML program: one stack lives through the file's tests
 * in order, as a user's does. Preview, up of every kind with auto-names and secrets, a no-op up, drift seen by
 * refresh and repaired, functions as invokes, a refused input, `pulumi import` by id of every kind (the code it
 * writes becomes the program, and runs with no change), the live zone deleted, destroy leaving the other kinds in
 * the account, said once. The same host code as the dynamic resources runs each step (provider/plugin/serve.ts).
 */
import * as fs from "fs";
import * as path from "path";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk } from "../support/engine";
import { importedResources, PLUGIN_DIR, pluginOps, yamlProgram, type YamlResource } from "../support/plugin";

const emu = useEmulator();
let p: EngineProject;

const ZONES: YamlResource[] = [
  { type: "PullZone", name: "site", properties: { origin: "https://origin.example.com" } },
  { type: "PushZone", name: "assets", properties: { password: "push-secret-1" } },
  { type: "VodZone", name: "videos", properties: { name: "videos", password: "vod-secret-1" } },
  { type: "LiveZone", name: "cam", properties: { password: "live-secret-1" } },
];
const INVOKE = [
  "variables:",
  "  pulls:",
  "    fn::invoke:",
  "      function: cdn:index:getPullZones",
  "      arguments: {}",
  "      return: zones",
  "",
].join("\n");
const program = (zones = ZONES, extra = "", outputs = "") => yamlProgram(zones, extra, outputs + INVOKE);
const writes = () =>
  emu.get().calls.filter((c) => /\.(create|update|delete)$/.test(c.method) && !c.method.startsWith("cache.")).length;

beforeAll(async () => {
  // The API key set without --secret, as a user may: the first test sees it refused, then encrypts it.
  p = await EngineProject.create(emu.get(), { projectYaml: program(), secretKey: false });
});
afterAll(() => p?.dispose());

test("a cdn:apiKey set without --secret is refused as for dynamic resources: the command that encrypts it, never the key (issue 41)", async () => {
  const calls = emu.get().calls.length;
  for (const r of [await p.preview(), await p.up()]) {
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("cdn:apiKey is set without --secret in this stack's configuration");
    expect(r.output).toContain("pulumi config set --secret cdn:apiKey <your API key>");
    expect(r.output).not.toContain(emu.get().apiKey);
  }
  expect(emu.get().calls.length).toBe(calls);
  expect(p.stateFileText()).not.toContain(emu.get().apiKey);
  expect((await p.exported()).text).not.toContain(emu.get().apiKey);
  await p.must(["config", "set", "--secret", "cdn:apiKey", emu.get().apiKey]);
});

test("preview shows a create of every kind and writes nothing", async () => {
  const r = expectOk(await p.preview());
  expect(pluginOps(r.steps)).toEqual(["create assets", "create cam", "create site", "create videos"]);
  expect(writes()).toBe(0);
});

test("up creates them: auto-names from the URN, passwords and the API key encrypted in the state", async () => {
  const r = expectOk(await p.up());
  expect(pluginOps(r.steps)).toEqual(["create assets", "create cam", "create site", "create videos"]);
  const out = await p.outputs();
  expect(out.site.name).toMatch(/^site-[a-z0-9]{7}$/);
  expect(out.videos.name).toBe("videos");
  expect(emu.get().zoneByName("pull", String(out.site.name))?.id).toBe(out.site.zoneId);
  expect(emu.get().passwordMatches("push", Number(out.assets.zoneId), "push-secret-1")).toBe(true);
  const state = p.allStateText();
  for (const secret of ["push-secret-1", "vod-secret-1", "live-secret-1"]) expect(state).not.toContain(secret);
  // The CLI itself writes the configuration it ran with into the update's history record (tests/engine/secrets.test.ts).
  expect(p.stateFileText()).not.toContain(emu.get().apiKey);
  expect((await p.exported()).text).not.toContain(emu.get().apiKey);
  const stored = (await p.resources()).find((x) => x.name === "assets");
  expect(stored?.outputs?.password).toMatchObject({ "4dabf18193072939515e22adb298388d": expect.any(String) });
  expect((await p.outputs()).pulls).toBeUndefined(); // a variable, not an output
});

test("a second up with --expect-no-changes passes and writes nothing", async () => {
  const before = writes();
  const r = expectOk(await p.up(undefined, ["--expect-no-changes"]));
  expect(pluginOps(r.steps)).toEqual(["same assets", "same cam", "same site", "same videos"]);
  expect(writes()).toBe(before);
});

test("a function is an invoke: getPullZones answers from the account", async () => {
  p.setProjectYaml(program(ZONES, "", "  pullCount: ${pulls}\n"));
  const r = expectOk(await p.up(undefined, ["--expect-no-changes"]));
  expect(r.code).toBe(0);
  const out = (await p.outputs()) as Record<string, unknown>;
  expect(out.pullCount).toEqual([expect.objectContaining({ kind: "pull", name: (out.site as { name: string }).name })]);
  p.setProjectYaml(program());
});

test("a purge called as an invoke purges nothing during a preview, and purges during the up", async () => {
  const purge = ["  purged:", "    fn::invoke:", "      function: cdn:index:purgeUrl", "      arguments:"];
  purge.push("        url: https://${site.cdnUrl}/index.html", "");
  p.setProjectYaml(program(ZONES, "", "  purge: ${purged}\n") + purge.join("\n"));
  const before = emu.get().purges.length;
  expectOk(await p.preview());
  expect(emu.get().purges.length).toBe(before);
  expectOk(await p.up());
  expect(emu.get().purges.length).toBe(before + 1);
  expect((await p.outputs()).purge).toMatchObject({ purged: true, preview: false });
  p.setProjectYaml(program());
});

test("drift made in the control panel: refresh records it, the next up puts it back", async () => {
  const site = emu.get().zones("pull")[0];
  await emu.get().editZone("pull", site.id, { origin: "https://elsewhere.example.com" });
  const refreshed = expectOk(await p.refresh());
  expect(pluginOps(refreshed.steps)).toEqual(["same assets", "same cam", "same videos", "update site"]);
  const stored = (await p.resources()).find((x) => x.name === "site");
  expect(stored?.outputs?.origin).toBe("https://elsewhere.example.com");
  const repaired = expectOk(await p.up());
  expect(pluginOps(repaired.steps)).toContain("update site");
  expect(emu.get().zones("pull")[0].origin).toBe("https://origin.example.com");
});

test("a refused input fails the preview naming the resource and the field, before any call", async () => {
  const before = writes();
  p.setProjectYaml(program([...ZONES, { type: "PullZone", name: "bad", properties: { origin: "ftp://x.example" } }]));
  const r = await p.preview();
  expect(r.code).not.toBe(0);
  expect(r.output).toMatch(/cdn:index:PullZone resource 'bad': property origin value .* must use http or https/);
  expect(writes()).toBe(before);
  p.setProjectYaml(program());
});

test("a warning of the host is shown under the resource it concerns (the engine's log, with its URN)", async () => {
  await emu.get().seedZone("pull", { name: "taken-name", origin: "https://taken.example.com" });
  const taken: YamlResource = {
    type: "PullZone",
    name: "taken",
    properties: { name: "taken-name", origin: "https://a.example.com" },
  };
  p.setProjectYaml(program([...ZONES, taken]));
  // A name in use fails the preview (tests/engine/plugin-gate.test.ts); its warning is under the resource.
  const r = await p.preview();
  expect(r.code).not.toBe(0);
  expect(r.output).toMatch(
    /cdn:index:PullZone \(taken\):\n(\s+.*\n)*?\s+warning: pull zone 'taken-name' \(id \d+\) already exists in the account/,
  );
  p.setProjectYaml(program());
});

test("pulumi import brings a zone of every kind in by its id, and the code it writes runs with no change", async () => {
  const seeded = [
    ["PullZone", await emu.get().seedZone("pull", { name: "legacy-pull", origin: "https://legacy.example.com" })],
    ["PushZone", await emu.get().seedZone("push", { name: "legacy-push", password: "legacy-pw-1" })],
    ["VodZone", await emu.get().seedZone("vod", { name: "legacy-vod", password: "legacy-pw-2" })],
    ["LiveZone", await emu.get().seedZone("live", { name: "legacy-live", password: "legacy-pw-3" })],
  ] as const;
  let code = "";
  for (const [type, zone] of seeded) {
    const file = path.join(p.root, `import-${type}.yaml`);
    const name = `old${type.replace("Zone", "").toLowerCase()}`;
    const r = await p.run([
      "import",
      `cdn:index:${type}`,
      name,
      String(zone.id),
      "--yes",
      "--protect=false",
      "--out",
      file,
    ]);
    expectOk(r);
    expect(pluginOps(r.steps).filter((s) => !s.startsWith("same "))).toEqual([`import ${name}`]);
    const text = fs.readFileSync(file, "utf8");
    expect(text).toContain(`type: cdn:${type}`);
    expect(text).toContain(`name: ${zone.name}`);
    expect(text).not.toMatch(/password/); // the API never shows one: the zone keeps its own
    code += importedResources(text);
  }
  const imported = (await p.resources()).find((x) => x.name === "oldpull");
  expect(imported?.outputs).toMatchObject({ zoneId: seeded[0][1].id, origin: "https://legacy.example.com" });
  // The code import wrote, added to the program: the next up changes nothing.
  p.setProjectYaml(program(ZONES, code));
  const r = expectOk(await p.up(undefined, ["--expect-no-changes"]));
  expect(pluginOps(r.steps).filter((s) => s.startsWith("same old"))).toHaveLength(4);
  // A password given later is set on the zone by the next up.
  p.setProjectYaml(program(ZONES, code.replace("name: legacy-push", "name: legacy-push\n      password: new-push-pw")));
  expectOk(await p.up());
  expect(emu.get().passwordMatches("push", seeded[1][1].id, "new-push-pw")).toBe(true);
  expect(p.allStateText()).not.toContain("new-push-pw");
});

test("a live zone removed from the program is deleted from the account", async () => {
  const rest = ZONES.filter((z) => z.type !== "LiveZone");
  p.setProjectYaml(program(rest));
  const r = expectOk(await p.up());
  expect(pluginOps(r.steps)).toContain("delete cam");
  expect(
    emu
      .get()
      .zones("live")
      .map((z) => z.name),
  ).toEqual([]);
  // The imported zones left the program too: kept in the account, said of each, under its resource.
  expect(r.output).toMatch(/pull zone 'legacy-pull' \(id \d+\) stays in the account and keeps serving/);
});

test("destroy: pull, push and VOD zones stay in the account, said of each; nothing stays in the stack", async () => {
  const out = await p.outputs();
  const r = expectOk(await p.destroy());
  expect(pluginOps(r.steps)).toEqual(["delete assets", "delete site", "delete videos"]);
  expect(r.output.match(/\) stays in the account and keeps serving/g)?.length).toBeGreaterThanOrEqual(3);
  // Declared without the option (a program written by hand): the words name it, for the preview's `[retain]`.
  expect(r.output).toContain(
    "declare such zones with `retainOnDelete: true` so a preview shows this as `delete [retain]`",
  );
  for (const [name, kind] of [
    ["site", "pull"],
    ["assets", "push"],
    ["videos", "vod"],
  ] as const)
    expect(emu.get().zoneByName(kind, String(out[name].name))?.id).toBe(out[name].zoneId);
  expect((await p.resources()).filter((x) => x.type.startsWith("cdn:index:"))).toEqual([]);
});

test("the YAML page's program previews: a zone of each kind, a purge and a lookup", async () => {
  // The zones the destroy above left in the account would be names in use: a fresh account, as a reader's.
  await emu.get().reset();
  const page = fs.readFileSync(path.resolve(__dirname, "../../docs/languages/yaml.md"), "utf8");
  const doc = /```yaml\n([\s\S]*?)```/.exec(page)![1].replace(/^name: .*\n/, "");
  p.setProjectYaml(
    doc.replace(
      "runtime: yaml\n",
      `runtime: yaml\nplugins:\n  providers:\n    - name: cdn\n      path: ${PLUGIN_DIR}\n`,
    ),
  );
  await p.must(["config", "set", "cdn:companyAlias", emu.get().companyAlias]);
  const r = expectOk(await p.preview());
  expect(pluginOps(r.steps)).toEqual([
    "create assets",
    "create purge",
    "create site",
    "create stream",
    "create videos",
  ]);
});

test("two stacks of the same project and stack name in two backends: auto-names of their own (the provider's id)", async () => {
  const site: YamlResource[] = [
    { type: "PullZone", name: "site", properties: { origin: "https://origin.example.com" } },
  ];
  const [a, b] = await Promise.all([0, 1].map(() => EngineProject.create(emu.get(), { projectYaml: program(site) })));
  try {
    expectOk(await a.up());
    expectOk(await b.up());
    const [na, nb] = [(await a.outputs()).site.name, (await b.outputs()).site.name];
    expect(na).toMatch(/^site-[a-z0-9]{7}$/);
    expect(nb).toMatch(/^site-[a-z0-9]{7}$/);
    expect(na).not.toBe(nb);
    // A second up of the same stack keeps its name: the provider's id is kept in the state.
    expectOk(await a.up(undefined, ["--expect-no-changes"]));
  } finally {
    await a.dispose();
    await b.dispose();
  }
});
