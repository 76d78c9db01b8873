/**
 * Hidden inputs are not an API (issue 41, point 7), through the real `pulumi` CLI: a program that sends `__autoName`
 * naming another team's live zone, with `name: pulumi.output(undefined)`, made the create "take back" that zone
 * without `adopt: true` (a silent preview, its password overwritten by the `up`, the zone deleted by `destroy`). A
 * take-back is decided from what only this stack knows: its own instance id as the host learns it from the stack's
 * StackId, never from a zone's inputs (resources/host/identity.ts).
 */
import { useEmulator } from "../support/emulator";
import { EngineProject } from "../support/engine";

const emu = useEmulator();
const E = () => emu.get();

test.each(["class", "provider"])(
  "via the %s: the other team's live zone is never taken, changed or deleted",
  async (via) => {
    const victim = await E().seedZone("livezone", { name: `theirs-${via}`, password: "Their-Pass-1" });
    const p = await EngineProject.create(E(), { program: "tests/fixtures/engine/hidden-inputs.js" });
    const env = { CDN_TEST_VICTIM: victim.name, CDN_TEST_VIA: via };
    const touched = () =>
      E().calls.filter((c) => /livezone\.(update|delete)$/.test(c.method) && Number(c.params[0]) === victim.id);
    try {
      const preview = await p.preview(undefined, [], { env });
      expect(preview.output).not.toContain("takes it back");
      const up = await p.up(undefined, [], { env });
      const cam = (await p.resources()).find((r) => r.type.endsWith(":LiveZone"));
      // Through the class the zone gets its own auto-name; straight to the provider the hidden name is no name.
      if (via === "class") expect(cam?.outputs?.name).toMatch(/^cam-[a-z0-9]{7}$/);
      else expect(up.output).toContain("'name' is required");
      expect(Number(cam?.id ?? 0)).not.toBe(victim.id);
      await p.destroy();
      expect(touched()).toEqual([]);
      expect(
        E()
          .zones("livezone")
          .some((z) => z.id === victim.id),
      ).toBe(true);
      expect(E().passwordMatches("livezone", victim.id, "Their-Pass-1")).toBe(true);
    } finally {
      p.dispose();
    }
  },
);
