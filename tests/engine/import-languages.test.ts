/**
 * `cdn-zones import --language yaml` through the real CLI: the Pulumi YAML program it writes for an existing
 * account, with the provider plugin (docs/languages/), adopts every zone on the first `up` (none made, the password
 * from the stack's secret config set on the zone) and the next `up` changes nothing. The Python program is run in
 * tests/engine/plugin-python.test.ts (over its virtualenv); how server text is escaped in each language,
 * tests/unit/cli-escape.test.ts. The zones it writes carry the options the package's classes set (issue 40): a kind the
 * API cannot delete is kept `[retain]` when it leaves the program, and the preview says so.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject } from "../support/engine";
import { expectImportAdopts, importProgram, PLUGINS_YAML, pluginOps, seedForImport } from "../support/plugin";

const emu = useEmulator();
let p: EngineProject | undefined;
let body = "";
afterAll(() => p?.dispose());

test("--language yaml writes a Pulumi YAML program that adopts the account's zones", async () => {
  const zones = await seedForImport(emu.get(), "y");
  const program = await importProgram(emu.get(), "yaml");
  expect(program).toMatch(/^name: cdn-zones\nruntime: yaml\n/m);
  expect(program).toContain("type: cdn:index:PullZone");
  body = program.replace(/^name: .*\n/m, "").replace("runtime: yaml\n", `runtime: yaml\n${PLUGINS_YAML}\n`);
  p = await EngineProject.create(emu.get(), { projectYaml: body });
  await expectImportAdopts(emu.get(), p, program, zones);
});

test("a zone of a kind the API cannot delete, removed from the program, previews as `delete [retain]`", async () => {
  // Every zone of the imported program removed: the steps come from the old state alone (the provider is not asked).
  p!.setProjectYaml(body.replace(/\nresources:\n[\s\S]*$/, "\n"));
  const r = await p!.preview();
  const deletes = r.steps.filter((s) => s.op === "delete" && s.type.startsWith("cdn:index:"));
  expect(pluginOps(deletes)).toHaveLength(2);
  for (const d of deletes) expect(r.olds[d.urn]?.retainOnDelete).toBe(true);
  expect(r.output.match(/delete\[retain\]|\[retain\]/g)?.length).toBeGreaterThanOrEqual(2);
});
