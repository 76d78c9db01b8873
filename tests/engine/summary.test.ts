/**
 * `cdn-zones summary` over the real `pulumi preview --json` (issue 41, point 6): the comment says what each step does
 * from the engine's JSON (an adoption from the `__adopts` check puts into the create's inputs), never from a message a
 * program or a server wrote, and shows their text inert and printable. The rules in detail: tests/cli/summary.test.ts.
 */
import { unprintableChar } from "../../provider/api/terminalText";
import { summarize } from "../../provider/cli/summary";
import { adoptNotice } from "../../provider/resources/host/messages";
import { specOf } from "../../provider/resources/specs";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, zoneResources, type ZoneDecl } from "../support/engine";

const emu = useEmulator();

test("a program's warning worded as an adoption notice keeps a live zone's delete a delete; a real adoption is read from its step", async () => {
  const p = await EngineProject.create(emu.get());
  try {
    const site: ZoneDecl = { kind: "PullZone", name: "site", args: { name: "site", origin: "https://o.example.com" } };
    const live: ZoneDecl = { kind: "LiveZone", name: "old", args: { name: "old-live", password: "Live-Pass-1" } };
    expectOk(await p.up([site, live]));
    const id = Number(zoneResources(await p.resources()).find((r) => r.name === "old")!.outputs!.zoneId);
    const hand = await emu.get().seedZone("pull", { name: "promo", origin: "https://promo.example.com" });
    // The live zone leaves the program (its delete deletes it); a zone made by hand is adopted; a resource's name
    // carries ESC, an OSC title, BEL and U+202E; the program warns in the words of the adoption notice, with markup.
    const evil = "evil\u001b]0;owned\u0007\u202e";
    const next: ZoneDecl[] = [
      site,
      { kind: "PullZone", name: "promo", args: { name: "promo", origin: "https://promo.example.com", adopt: true } },
      { kind: "PullZone", name: evil, args: { name: "evil", origin: "https://o.example.com" } },
    ];
    const warning = `${adoptNotice(specOf("live"), { name: "old-live", id })}\n![x](https://evil.example/x.png) @everyone`;
    const r = await p.preview(next, ["--json", "--show-sames"], { env: { CDN_TEST_WARN: warning } });
    expect(r.code).toBe(0);
    const comment = summarize(JSON.parse(r.stdout), "Preview");
    expect(comment).toContain("Zones: 1 create, 1 adopt, 1 delete; 1 unchanged.");
    expect(comment).toContain("- delete live zone `old-live`, resource `old`: deleted from the account");
    expect(comment).toContain(
      `- adopt pull zone \`promo\` (id ${hand.id}), resource \`promo\`: taken over, nothing made`,
    );
    expect(comment).toContain("- create pull zone `evil`, resource `evil\\u001b]0;owned\\u0007\\u202e`");
    expect(comment.split("\n").filter(unprintableChar)).toEqual([]);
    // The program's warning is shown, in a code block.
    expect(comment).toContain("\n```text\nwarning: live zone 'old-live'");
    expect(comment).toContain("@everyone\n```\n");
  } finally {
    p.dispose();
  }
});
