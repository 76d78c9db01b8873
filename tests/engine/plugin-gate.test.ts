/**
 * The pull request's preview is the gate in every language (issue 40, point 1), through the real CLI from Pulumi YAML
 * programs run by Pulumi's own YAML host. The engine stops at the first failed check, in a preview as in an `up`, so a
 * YAML program's zones are one batch (plugin/places.ts) and the check completing it fails with every name clash: a
 * name an unmanaged zone holds, one differing only in case, one name declared twice. A program the plugin cannot read
 * whole still fails, at its first clash. Adoptions are counted in one line, as for the dynamic resources. The same
 * from Python: tests/engine/plugin-python.test.ts.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject } from "../support/engine";
import { yamlProgram, type YamlResource } from "../support/plugin";

const emu = useEmulator();
let p: EngineProject;
const ORIGIN = "https://origin.example.com";
const pull = (name: string, properties: Record<string, unknown> = {}): YamlResource => ({
  type: "PullZone",
  name,
  properties: { origin: ORIGIN, ...properties },
});
const writes = () => emu.get().calls.filter((c) => /zone\.(create|update|delete)$/.test(c.method)).length;
/** The problems a check's failure lists (its lines `- <problem>`, under Diagnostics). */
const listed = (output: string) => output.split("\n").filter((l) => /^\s+- \w+ zone '/.test(l));
/** The resources whose check failed (each is shown twice: the progress and Diagnostics). */
const failedChecks = (output: string) =>
  new Set([...output.matchAll(/error: cdn:index:\w+ resource '(\w+)' has a problem/g)].map((m) => m[1]));

beforeAll(async () => {
  await emu.get().seedZone("pull", { name: "taken", origin: ORIGIN });
  await emu.get().seedZone("pull", { name: "Shop", origin: ORIGIN });
  await emu.get().seedZone("push", { name: "legacy", password: "Legacy-pw-1" });
  p = await EngineProject.create(emu.get(), { projectYaml: yamlProgram([pull("site")]) });
});
afterAll(() => p?.dispose());

const CLASHES: YamlResource[] = [
  pull("site"),
  pull("a", { name: "taken" }),
  pull("b", { name: "shop" }),
  pull("c", { name: "twin" }),
  pull("d", { name: "twin" }),
  { type: "PushZone", name: "files", properties: { password: "Files-pw-1" } },
];

test("the engine stops at the first failed check in a preview and in an up: the zones after it are never checked", async () => {
  const bad = ["x", "y", "z"].map((n) => pull(n, { origin: "ftp://files.example.com" }));
  for (const run of [() => p.preview(), () => p.up()]) {
    p.setProjectYaml(yamlProgram(bad));
    const r = await run();
    expect(r.code).not.toBe(0);
    // Shown twice (the progress and Diagnostics), for one resource only.
    const failed = [...r.output.matchAll(/error: cdn:index:PullZone resource '([xyz])': property origin/g)];
    expect(new Set(failed.map((m) => m[1])).size).toBe(1);
  }
  expect(writes()).toBe(0);
});

test("a preview fails on every name clash of the program in one run, naming each; nothing is written", async () => {
  p.setProjectYaml(yamlProgram(CLASHES));
  const r = await p.preview();
  expect(r.code).not.toBe(0);
  expect(r.output).toContain("3 zones of this program cannot be created as declared:");
  const lines = listed(r.output);
  expect(lines.some((l) => l.includes("pull zone 'taken' (id 1) already exists in the account"))).toBe(true);
  expect(
    lines.some((l) => l.includes("the account holds pull zone 'Shop' (id 2), whose name differs only in case")),
  ).toBe(true);
  expect(
    lines.some((l) => /- pull zone 'twin' is declared by two resources, '[cd]' and '[cd]': one zone/.test(l)),
  ).toBe(true);
  expect(failedChecks(r.output).size).toBe(1);
  expect(writes()).toBe(0);
});

test("a program the plugin cannot read whole (an explicit provider) still fails its preview, at its first clash", async () => {
  const explicit = "  prov:\n    type: pulumi:providers:cdn\n";
  const zones = CLASHES.map((z) => ({ ...z, options: { provider: "${prov}" } }));
  p.setProjectYaml(yamlProgram(zones, explicit));
  // The explicit provider reads the connection from the environment (its own properties are empty).
  const env = {
    CDN_BASE_URL: emu.get().url,
    CDN_API_USER_ID: String(emu.get().apiUserId),
    CDN_API_KEY: emu.get().apiKey,
  };
  const r = await p.preview(undefined, [], { env });
  expect(r.code).not.toBe(0);
  expect(r.output).toContain("1 zone of this program cannot be created as declared:");
  expect(listed(r.output)).toHaveLength(1);
  expect(failedChecks(r.output).size).toBe(1);
  expect(writes()).toBe(0);
});

test("creates that adopt zones are counted in one line", async () => {
  const adopting: YamlResource[] = [
    pull("site"),
    pull("old", { name: "taken", adopt: true }),
    { type: "PushZone", name: "legacy", properties: { name: "legacy", password: "Legacy-pw-1", adopt: true } },
  ];
  p.setProjectYaml(yamlProgram(adopting));
  const r = await p.preview();
  expect(r.code).toBe(0);
  // Said of the deployment, as the dynamic resources' lines are: once in the progress and once under Diagnostics (under
  // its resource, each change of the resource's row repeated it: issue 40, point 5).
  expect(r.output.match(/pull zone 'taken' \(id 1\) exists in the account: this create adopts it/g)).toHaveLength(2);
  expect(r.output).toMatch(
    /pulumi:pulumi:Stack \(cdnzones-dev\):\n\s+warning: (pull|push) zone '(taken|legacy)' \(id \d+\) exists/,
  );
  expect(r.output).toMatch(
    /2 of this deployment's creates adopt zones that exist \(nothing new is made for them\): (pull zone 'taken' \(id 1\)|push zone 'legacy' \(id \d+\)), /,
  );
});
