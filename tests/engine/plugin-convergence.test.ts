/**
 * Issue 42 through the real `pulumi` CLI and the provider plugin, from a Pulumi YAML program: a field cleared with
 * `""` (the drift check green after the `up`), a pull zone's first refresh finding nothing (no value the create did
 * not record), and the convergence property of tests/support/convergence.ts sampled with a fixed seed. The dynamic
 * resources' entry: tests/engine/convergence.test.ts.
 */
import fc from "fast-check";
import { convergence, engineDriver, type Driver, type Zone } from "../support/convergence";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk } from "../support/engine";
import { yamlProgram } from "../support/plugin";

const emu = useEmulator();
const suffix = process.pid % 997;
const projects: EngineProject[] = [];
afterAll(() => projects.forEach((p) => p.dispose()));
const program = (zones: Zone[]) => yamlProgram(zones.map((z) => ({ type: z.kind, name: z.name, properties: z.args })));
const project = async (zones: Zone[]) => {
  const p = await EngineProject.create(emu.get(), { projectYaml: program(zones) });
  projects.push(p);
  return p;
};

test('vhost "" and compress left out: the update sends only the clear; the first refresh and the drift check find nothing', async () => {
  const site = (args: Record<string, string>): Zone[] => [
    { kind: "PullZone", name: "site", args: { name: `yclear-${suffix}`, origin: "https://o.example.com", ...args } },
  ];
  const p = await project(site({ vhost: "www.example.com", compress: "1" }));
  expectOk(await p.up());
  const first = expectOk(await p.preview(undefined, ["--refresh", "--expect-no-changes", "--diff"]));
  expect(first.output).not.toMatch(/\+ vhost/);
  const id = emu.get().zoneByName("pull", `yclear-${suffix}`)!.id;
  const before = emu.get().calls.length;
  p.setProjectYaml(program(site({ vhost: "" })));
  expectOk(await p.up());
  const sent = emu
    .get()
    .calls.slice(before)
    .filter((c) => c.method === "pullzone.update");
  expect(sent.map((c) => c.params)).toEqual([[id, { vhost: "" }]]);
  expect(emu.get().zoneByName("pull", `yclear-${suffix}`)).toMatchObject({ vhost: "", compress: "1" });
  expect((await p.preview(undefined, ["--refresh", "--expect-no-changes"])).code).toBe(0);
});

/** The real CLI and a YAML program through the plugin as the property's driver. */
async function cli(): Promise<Driver> {
  const p = await project([]);
  const isZone = (type: string) => type.startsWith("cdn:index:") && type !== "cdn:index:CachePurge";
  return engineDriver(p, isZone, (zones) => void p.setProjectYaml(program(zones)));
}

/** Seeds whose sequences clear, set, leave out and rename fields, and edit and delete zones in the control panel. */
test.each([120, 37])(
  "the convergence property holds through the plugin: the sequence of seed %d",
  async (seed) => {
    const property = convergence(() => emu.get(), cli, { slots: 2, maxCommands: 7 });
    await fc.assert(property, { numRuns: 1, seed, endOnFailure: true });
  },
  300_000,
);
