/**
 * Zones made by hand in a drift check (issue 32, point 6), through the real CLI: `getUnmanagedZonesOutput` in a
 * preview. While a change of a zone is pending, the preview knows neither its `zoneId` nor (for a zone being adopted)
 * its id; the function still tells the stack's zones from a zone made in the control panel.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, type CommandResult, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
const E = () => emu.get();
const suffix = `${process.pid % 997}`;
const env = { env: { CDN_TEST_UNMANAGED: "1" } };
/** The program's `unmanaged` output as the preview's last step event for the stack carries it. */
const unmanaged = (r: CommandResult) =>
  (r.steps.filter((s) => s.type === "pulumi:pulumi:Stack").pop()?.outputs as Record<string, unknown>).unmanaged;

test("a preview lists only zones made by hand: not a zone with a pending update, nor one being adopted or taken", async () => {
  const p = await EngineProject.create(E());
  try {
    const site = { kind: "PullZone", name: "site", args: { name: `site-${suffix}`, origin: "https://a.example.com" } };
    const vod = { kind: "VodZone", name: "videos", args: { name: `videos-${suffix}`, password: "Videos-Pass-1" } };
    expectOk(await p.up([site, vod] as ZoneDecl[], [], env));
    const clean = expectOk(await p.preview([site, vod] as ZoneDecl[], ["--refresh"], env));
    expect(unmanaged(clean)).toEqual([]);

    // A change of the program (the pull request's) and an adoption: no id is known for either in the preview.
    const existing = await E().seedZone("push", { name: `legacy-${suffix}`, password: "Legacy-Pass-1" });
    const changed = [
      { ...site, args: { ...site.args, origin: "https://b.example.com" } },
      vod,
      { kind: "PushZone", name: "legacy", args: { name: existing.name, password: "Legacy-Pass-1", adopt: true } },
    ] as ZoneDecl[];
    const pr = expectOk(await p.preview(changed, ["--refresh"], env));
    expect(pr.steps.filter((s) => s.op !== "same").map((s) => `${s.op} ${s.name}`)).toEqual(
      expect.arrayContaining(["update site", "create legacy"]),
    );
    expect(unmanaged(pr)).toEqual([]);

    // A zone made in the control panel is listed, whatever the program's pending changes.
    await E().seedZone("pull", { name: `by-hand-${suffix}`, origin: "https://hand.example.com" });
    expect(unmanaged(expectOk(await p.preview(changed, ["--refresh"], env)))).toEqual([`pull:by-hand-${suffix}`]);
  } finally {
    p.dispose();
  }
});
