/**
 * `cdn-zones import --language yaml` through the real CLI: the Pulumi YAML program it writes for an existing
 * account, with the provider plugin (docs/languages/), adopts every zone on the first `up` (none made, the password
 * from the stack's secret config set on the zone) and the next `up` changes nothing. The Python program is run in
 * tests/engine/plugin-python.test.ts (over its virtualenv); how server text is escaped in each language,
 * tests/unit/cli-escape.test.ts.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject } from "../support/engine";
import { expectImportAdopts, importProgram, PLUGINS_YAML, seedForImport } from "../support/plugin";

const emu = useEmulator();
let p: EngineProject | undefined;
afterAll(() => p?.dispose());

test("--language yaml writes a Pulumi YAML program that adopts the account's zones", async () => {
  const zones = await seedForImport(emu.get(), "y");
  const program = await importProgram(emu.get(), "yaml");
  expect(program).toMatch(/^name: cdn-zones\nruntime: yaml\n/m);
  expect(program).toContain("type: cdn:index:PullZone");
  const body = program.replace(/^name: .*\n/m, "").replace("runtime: yaml\n", `runtime: yaml\n${PLUGINS_YAML}\n`);
  p = await EngineProject.create(emu.get(), { projectYaml: body });
  await expectImportAdopts(emu.get(), p, program, zones);
});
