/**
 * Issue 42 through the real `pulumi` CLI, TypeScript dynamic resources: a field cleared with `""` (the drift check
 * green after the `up`), a service that ignores the clear (the `up` fails, nothing faked), the update after a rename
 * in the control panel showing `~ name`, and the convergence property of tests/support/convergence.ts sampled with
 * fixed seeds. The plugin's entry, from a YAML program: tests/engine/plugin-convergence.test.ts.
 */
import fc from "fast-check";
import { convergence, engineDriver, type Driver } from "../support/convergence";
import { useEmulator, type Emulator } from "../support/emulator";
import { EngineProject, expectOk, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
const suffix = process.pid % 997;
const projects: EngineProject[] = [];
afterAll(() => projects.forEach((p) => p.dispose()));
const project = async (e: Emulator) => {
  const p = await EngineProject.create(e);
  projects.push(p);
  return p;
};
const updates = (e: Emulator, since: number) =>
  e.calls
    .slice(since)
    .filter((c) => c.method === "pullzone.update")
    .map((c) => c.params);

describe("clearing a field", () => {
  const site = (args: Record<string, string>): ZoneDecl[] => [
    { kind: "PullZone", name: "site", args: { name: `clear-${suffix}`, origin: "https://o.example.com", ...args } },
  ];

  test('vhost "" and compress left out: the update sends only the clear, and the drift check after it is green', async () => {
    const p = await project(emu.get());
    expectOk(await p.up(site({ vhost: "www.example.com", compress: "1" })));
    const id = emu.get().zoneByName("pull", `clear-${suffix}`)!.id;
    const before = emu.get().calls.length;
    expectOk(await p.up(site({ vhost: "" })));
    expect(updates(emu.get(), before)).toEqual([[id, { vhost: "" }]]);
    expect(emu.get().zoneByName("pull", `clear-${suffix}`)).toMatchObject({ vhost: "", compress: "1" });
    expect((await p.preview(site({ vhost: "" }), ["--refresh", "--expect-no-changes"])).code).toBe(0);
  });

  test("a service that ignores it: the up fails naming the zone, the field and the control panel; nothing is faked", async () => {
    const legacy = await emu.another({ compat: "legacy" });
    const p = await project(legacy);
    expectOk(await p.up(site({ vhost: "www.example.com" })));
    const failed = await p.up(site({ vhost: "" }));
    expect(failed.code).not.toBe(0);
    expect(failed.output).toContain(
      "pullzone.update answered 0 (success), but the account still holds vhost 'www.example.com'",
    );
    expect(failed.output).toContain("Clear it in the control panel");
    const stored = (await p.resources()).find((r) => r.name === "site");
    expect(stored?.outputs?.vhost).toBe("www.example.com");
    expect((await p.preview(site({ vhost: "" }), ["--refresh", "--expect-no-changes"])).code).toBe(7);
  });
});

test("after a rename in the control panel, the update that names an auto-named zone back shows `~ name`", async () => {
  const p = await project(emu.get());
  const zones: ZoneDecl[] = [{ kind: "PullZone", name: "auto", args: { origin: "https://o.example.com" } }];
  expectOk(await p.up(zones));
  const name = String((await p.outputs()).auto.name);
  const zone = emu.get().zoneByName("pull", name)!;
  await emu.get().editZone("pull", zone.id, { name: `${name}-renamed` });
  expectOk(await p.refresh(zones));
  const preview = expectOk(await p.preview(zones, ["--diff"]));
  expect(preview.output).toMatch(new RegExp(`~ name\\s*: "${name}-renamed" => "${name}"`));
  expectOk(await p.up(zones));
  expect(
    emu
      .get()
      .zones("pull")
      .find((z) => z.id === zone.id)?.name,
  ).toBe(name);
  expect((await p.preview(zones, ["--refresh", "--expect-no-changes"])).code).toBe(0);
});

/** The real CLI and the fixture program (CDN_TEST_ZONES) as the property's driver. */
const cli = async (): Promise<Driver> =>
  engineDriver(
    await project(emu.get()),
    (type) => type.startsWith("pulumi-nodejs:dynamic/cdn:") && !type.endsWith(":StackId"),
    (zones) => zones,
  );

/** Seeds whose sequences clear, set, leave out and rename fields, and edit and delete zones in the control panel. */
test.each([150, 286])(
  "the convergence property holds through the real CLI: the sequence of seed %d",
  async (seed) => {
    const property = convergence(() => emu.get(), cli, { slots: 2, maxCommands: 7 });
    await fc.assert(property, { numRuns: 1, seed, endOnFailure: true });
  },
  300_000,
);
