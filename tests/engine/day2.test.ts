/**
 * Day 2 of the GitOps workflow (issue 32), through the real `pulumi` CLI: what happens to an account over months
 * must keep the jobs working. A rename in the control panel is drift (the drift check exits 7, the next `up` puts
 * the name back) and never hides the drift of other zones; renaming an adopted live zone's resource without
 * `aliases` never deletes the live zone.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, type StateResource, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
const E = () => emu.get();
const suffix = `${process.pid % 997}`;
const writes = () => E().calls.filter((c) => /\.(create|update|delete)$/.test(c.method)).length;
const byName = (rs: StateResource[], name: string) => rs.find((r) => r.urn.endsWith(`::${name}`));

describe("a rename in the control panel", () => {
  // Two push zones: their vanity IPs, each its own, prove a renamed one the same zone (issue 41; recorded.ts).
  const ZONES: ZoneDecl[] = [
    { kind: "PushZone", name: "static", args: { name: `static-${suffix}`, password: "Static-Pass-1" } },
    { kind: "PushZone", name: "media", args: { name: `media-${suffix}`, password: "Media-Pass-1" } },
    { kind: "PullZone", name: "site", args: { name: `site-${suffix}`, origin: "https://origin.example.com" } },
  ];
  let p: EngineProject;
  beforeAll(async () => {
    p = await EngineProject.create(E());
    expectOk(await p.up(ZONES));
  });
  afterAll(() => p?.dispose());

  test("is drift: the drift check exits 7 and shows the other zone's drift too; refresh records it; up --refresh puts it back", async () => {
    const push = E()
      .zones("push")
      .find((z) => z.name === `static-${suffix}`)!;
    const pull = E()
      .zones("pull")
      .find((z) => z.name === `site-${suffix}`)!;
    await E().editZone("push", push.id, { name: `static-${suffix}-renamed` });
    await E().editZone("pull", pull.id, { origin: "https://changed.example.com" });

    const line = `push zone 'static-${suffix}' (id ${push.id}) is now named 'static-${suffix}-renamed' in the account`;
    const drift = await p.preview(ZONES, ["--refresh", "--expect-no-changes", "--diff"]);
    expect(drift.code).toBe(7);
    expect(drift.output).toContain(line);
    expect(drift.output).toContain("https://changed.example.com"); // the other zone's drift is not hidden
    expect(drift.output).not.toMatch(/at .*lifecycle\.js:\d+/); // no stack trace

    const refresh = await p.refresh(ZONES);
    expectOk(refresh);
    expect(refresh.output).toContain(line);
    const recorded = byName(await p.resources(), "static")!;
    expect(recorded.outputs).toMatchObject({ name: `static-${suffix}-renamed` });

    expectOk(await p.up(ZONES, ["--refresh"]));
    expect(
      E()
        .zones("push")
        .find((z) => z.id === push.id),
    ).toMatchObject({ name: `static-${suffix}` });
    expect(
      E()
        .zones("pull")
        .find((z) => z.id === pull.id),
    ).toMatchObject({ origin: "https://origin.example.com" });
    const clean = await p.preview(ZONES, ["--refresh", "--expect-no-changes"]);
    expect(clean.code).toBe(0);
  });

  test("declaring the new name, as a team that accepts the rename would, is an up that changes no zone", async () => {
    const push = E()
      .zones("push")
      .find((z) => z.name === `static-${suffix}`)!;
    await E().editZone("push", push.id, { name: `static-${suffix}-kept` });
    const kept = ZONES.map((z) =>
      z.name === "static" ? { ...z, args: { ...z.args, name: `static-${suffix}-kept` } } : z,
    );
    const before = writes();
    expectOk(await p.up(kept, ["--refresh"]));
    expect(writes()).toBe(before);
    expect(
      E()
        .zones("push")
        .find((z) => z.id === push.id),
    ).toMatchObject({ name: `static-${suffix}-kept` });
    expect((await p.preview(kept, ["--refresh", "--expect-no-changes"])).code).toBe(0);
  });
});

describe("renaming an adopted live zone's resource without aliases", () => {
  test("the new resource adopts the zone and the old resource's delete keeps it: the stream is never deleted", async () => {
    const name = `news-${suffix}`;
    const seeded = await E().seedZone("livezone", { name, password: "News-Pass-1" });
    const p = await EngineProject.create(E());
    try {
      const adopted = (resource: string): ZoneDecl[] => [
        { kind: "LiveZone", name: resource, args: { name, password: "News-Pass-1", adopt: true } },
      ];
      expectOk(await p.up(adopted("live-news-01")));
      const deletes = () => E().calls.filter((c) => c.method === "livezone.delete").length;
      const before = deletes();
      const preview = await p.preview(adopted("news-live"));
      expect(preview.output).toContain(
        `live zone '${name}' (id ${seeded.id}) exists in the account: this create adopts it`,
      );
      const up = await p.up(adopted("news-live"));
      expectOk(up);
      expect(up.output).toContain(`live zone '${name}' (id ${seeded.id}) was not deleted`);
      expect(deletes()).toBe(before);
      expect(
        E()
          .zones("live")
          .find((z) => z.id === seeded.id),
      ).toBeDefined();
      const state = await p.resources();
      expect(byName(state, "news-live")?.outputs).toMatchObject({ zoneId: seeded.id });
      expect(byName(state, "live-news-01")).toBeUndefined();
      // And the next refresh finds it, not "deleted outside Pulumi".
      expectOk(await p.refresh(adopted("news-live")));
      expect(byName(await p.resources(), "news-live")?.id).toBe(String(seeded.id));
    } finally {
      await p.dispose();
    }
  });
});

describe("a key rotation", () => {
  const ZONES: ZoneDecl[] = [
    { kind: "PullZone", name: "site", args: { name: `rotate-${suffix}`, origin: "https://origin.example.com" } },
  ];
  const RUN_PROGRAM = { env: { PULUMI_RUN_PROGRAM: "true" } };

  test("refresh runs with the key of the last up unless the program runs: PULUMI_RUN_PROGRAM=true makes every job use the rotated key", async () => {
    const account = await emu.another({ apiKey: "rotation-key-one-0001" });
    const p = await EngineProject.create(account);
    try {
      expectOk(await p.up(ZONES));
      account.rotateKey("rotation-key-two-0002");
      await p.must(["config", "set", "--secret", "cdn:apiKey", "rotation-key-two-0002"]);
      // What the workflow did before: the refresh configures the provider with the key recorded at the last up.
      const stale = await p.preview(ZONES, ["--refresh", "--expect-no-changes"]);
      expect(stale.code).toBe(1);
      expect(stale.output).toContain("If the key was rotated since the last `pulumi up`");
      expect(stale.output).toContain("PULUMI_RUN_PROGRAM=true");
      // The workflow's jobs run the program: the PR preview, the drift check and the merge's up --refresh all work.
      expect((await p.preview(ZONES, ["--refresh", "--expect-no-changes"], RUN_PROGRAM)).code).toBe(0);
      expectOk(await p.up(ZONES, ["--refresh"], RUN_PROGRAM));
      // From then on the state records the new key: even a plain refresh works.
      expectOk(await p.refresh(ZONES));
    } finally {
      await p.dispose();
    }
  });

  test("a wrong key in the stack's config never passes the drift check of the workflow", async () => {
    const account = await emu.another({ apiKey: "rotation-key-three-03" });
    const p = await EngineProject.create(account);
    try {
      expectOk(await p.up(ZONES));
      await p.must(["config", "set", "--secret", "cdn:apiKey", "not-the-key-of-this-account"]);
      const drift = await p.preview(ZONES, ["--refresh", "--expect-no-changes"], RUN_PROGRAM);
      expect(drift.code).not.toBe(0);
      expect(drift.code).not.toBe(7);
      expect(drift.output).toContain("authentication failed");
      expect(drift.output).not.toContain("not-the-key-of-this-account");
    } finally {
      await p.dispose();
    }
  });
});
