/**
 * Two stacks with the same organization, project and stack name, in two backends, against one account (issue 33,
 * point 1): a DIY backend's organization is always `organization`, so the text of a stack's name is no identity.
 * Each stack instance's auto-names come from its own random id (resources/stackId.ts): neither stack takes, changes
 * or deletes a zone of the other. Through the real `pulumi` CLI.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
const E = () => emu.get();
const ZONES: ZoneDecl[] = [
  { kind: "PullZone", name: "site", args: { origin: "https://alice.example.com" } },
  { kind: "LiveZone", name: "cam", args: { password: "Alice-Pass-1" } },
];
const BOBS: ZoneDecl[] = [
  { kind: "PullZone", name: "site", args: { origin: "https://bob.example.com" } },
  { kind: "LiveZone", name: "cam", args: { password: "Bob-Pass-1" } },
];

test("web/dev in two backends, one account: each stack makes its own zones, and Bob's destroy leaves Alice's", async () => {
  const alice = await EngineProject.create(E(), { project: "web", stack: "dev" });
  const bob = await EngineProject.create(E(), { project: "web", stack: "dev" });
  try {
    expectOk(await alice.up(ZONES));
    const hers = (await alice.resources()).filter((r) => r.type.includes("Zone"));
    const ids = hers.map((r) => Number(r.id));
    const touched = () =>
      E().calls.filter((c) => /\.(update|delete)$/.test(c.method) && ids.includes(Number(c.params[0])));
    expect(hers).toHaveLength(2);

    const up = await bob.up(BOBS);
    expectOk(up);
    expect(up.output).not.toContain("takes it back");
    const his = (await bob.resources()).filter((r) => r.type.includes("Zone"));
    expect(his.map((r) => r.outputs!.name)).not.toEqual(expect.arrayContaining(hers.map((r) => r.outputs!.name)));
    expect(his.map((r) => Number(r.id)).some((id) => ids.includes(id))).toBe(false);

    expectOk(await bob.destroy());
    expect(touched()).toEqual([]);
    const site = E()
      .zones("pull")
      .find((z) => z.id === Number(hers.find((r) => r.type.endsWith("PullZone"))!.id));
    expect(site).toMatchObject({ origin: "https://alice.example.com" });
    const cam = Number(hers.find((r) => r.type.endsWith("LiveZone"))!.id);
    expect(
      E()
        .zones("live")
        .some((z) => z.id === cam),
    ).toBe(true);
    expect(E().passwordMatches("livezone", cam, "Alice-Pass-1")).toBe(true);
  } finally {
    await alice.dispose();
    await bob.dispose();
  }
});
