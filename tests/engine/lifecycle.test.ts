/**
 * The mission's lifecycle through the real `pulumi` CLI: preview, up of all four kinds, a no-op up with
 * --expect-no-changes, drift made in the control panel seen by refresh and repaired by up, drift on a
 * create-only field, the GitOps drift check of examples/gitops, and destroy (the live zone deleted, the
 * others left in the account, said once). One stack lives through the file's tests, in order, as a user's does.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, zoneOps, zoneResources, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
let p: EngineProject;
beforeAll(async () => {
  p = await EngineProject.create(emu.get());
});
afterAll(() => p?.dispose());

const ZONES: ZoneDecl[] = [
  { kind: "PullZone", name: "site", args: { origin: "https://origin.example.com", vanityDomain: "www.example.com" } },
  { kind: "PushZone", name: "assets", args: { password: "push-secret-1" } },
  { kind: "VodZone", name: "videos", args: { password: "vod-secret-1" } },
  { kind: "LiveZone", name: "cam", args: { password: "live-secret-1" } },
];
const writes = () =>
  emu.get().calls.filter((c) => /\.(create|update|delete)$/.test(c.method) && !c.method.startsWith("cache.")).length;

test("preview shows four creates and changes nothing in the account", async () => {
  const r = await p.preview(ZONES);
  expect(r.code).toBe(0);
  expect(zoneOps(r.steps)).toEqual(["create assets", "create cam", "create site", "create videos"]);
  expect(writes()).toBe(0);
  for (const kind of ["pull", "push", "vod", "live"] as const) expect(emu.get().zones(kind)).toEqual([]);
});

test("up creates one zone of each kind, and the outputs are the account's", async () => {
  const r = await p.up(ZONES);
  expect(r.output).not.toMatch(/error/i);
  expect(r.code).toBe(0);
  expect(zoneOps(r.steps)).toEqual(["create assets", "create cam", "create site", "create videos"]);
  const out = await p.outputs();
  for (const [name, kind] of [
    ["site", "pull"],
    ["assets", "push"],
    ["videos", "vod"],
    ["cam", "live"],
  ] as const) {
    const zones = emu.get().zones(kind);
    expect(zones).toHaveLength(1);
    expect(out[name]).toMatchObject({ zoneId: zones[0].id, name: zones[0].name });
  }
  expect(out.site.cdnUrl).toBe(emu.get().zones("pull")[0].cdn_url);
});

test("a second up with --expect-no-changes passes and writes nothing", async () => {
  const before = writes();
  const r = await p.up(ZONES, ["--expect-no-changes"]);
  expect(r.code).toBe(0);
  expect(zoneOps(r.steps)).toEqual(["same assets", "same cam", "same site", "same videos"]);
  expect(writes()).toBe(before);
});

test("the GitOps drift check passes without drift: pulumi preview --refresh --expect-no-changes exits 0", async () => {
  const r = await p.preview(ZONES, ["--refresh", "--expect-no-changes"]);
  expect(r.code).toBe(0);
});

test("a change in the control panel: the GitOps check fails, refresh records it, the next up puts it back", async () => {
  const site = emu.get().zones("pull")[0];
  await emu.get().editZone("pull", site.id, { origin: "https://elsewhere.example.com" });

  const check = await p.preview(ZONES, ["--refresh", "--expect-no-changes"]);
  expect(check.code).not.toBe(0);
  expect(check.output).toContain("no changes were expected for preview but changes were proposed");

  const refreshed = await p.refresh(ZONES);
  expect(refreshed.code).toBe(0);
  // The engine labels a refresh that found drift `update` in its events (`refresh` in the testing kit).
  expect(zoneOps(refreshed.steps)).toEqual(["same assets", "same cam", "same videos", "update site"]);
  const stored = zoneResources(await p.resources()).find((r) => r.name === "site");
  expect(stored?.outputs?.origin).toBe("https://elsewhere.example.com");

  const repaired = await p.up(ZONES);
  expect(repaired.code).toBe(0);
  expect(zoneOps(repaired.steps)).toEqual(["same assets", "same cam", "same videos", "update site"]);
  expect(emu.get().zones("pull")[0].origin).toBe("https://origin.example.com");
  expect((await p.preview(ZONES, ["--refresh", "--expect-no-changes"])).code).toBe(0);
});

test("drift on a create-only field: refresh shows it, up is refused with the reason, nothing is written", async () => {
  const site = emu.get().zones("pull")[0];
  await emu.get().editZone("pull", site.id, { vanity_domain: "changed.example.com" });
  const refreshed = expectOk(await p.refresh(ZONES));
  expect(zoneOps(refreshed.steps)).toContain("update site");

  const before = writes();
  const refused = await p.up(ZONES);
  expect(refused.code).not.toBe(0);
  expect(refused.output).toContain("'vanityDomain' cannot be changed from 'changed.example.com' to 'www.example.com'");
  expect(refused.output).toContain("ignoreChanges");
  expect(writes()).toBe(before);

  // The way out the message names: accept the control panel's value.
  const accepted = ZONES.map((z) => (z.name === "site" ? { ...z, opts: { ignoreChanges: ["vanityDomain"] } } : z));
  const ok = await p.up(accepted, ["--expect-no-changes"]);
  expect(ok.code).toBe(0);
  expect(writes()).toBe(before);
});

test("destroy deletes the live zone and keeps the others, marked `[retain]`", async () => {
  const before = { pull: emu.get().zones("pull"), push: emu.get().zones("push"), vod: emu.get().zones("vod") };
  const r = await p.destroy();
  expect(r.code).toBe(0);
  expect(emu.get().zones("live")).toEqual([]);
  expect(emu.get().calls.filter((c) => c.method === "livezone.delete")).toHaveLength(1);
  for (const kind of ["pull", "push", "vod"] as const) {
    expect(
      emu
        .get()
        .zones(kind)
        .map((z) => z.id),
    ).toEqual(before[kind].map((z) => z.id));
  }
  // The engine reports every zone deleted, and marks the ones it keeps in the account `[retain]` (issue 32).
  expect(zoneOps(r.steps)).toEqual(["delete assets", "delete cam", "delete site", "delete videos"]);
  for (const [type, name] of [
    ["PullZone", "site"],
    ["PushZone", "assets"],
    ["VodZone", "videos"],
  ])
    expect(r.output).toMatch(new RegExp(`dynamic/cdn:${type} ${name} deleted \\([\\d.]+s\\)\\[retain\\]`));
  expect(r.output).not.toMatch(/LiveZone cam deleted \([\d.]+s\)\[retain\]/);
  expect(zoneResources(await p.resources())).toEqual([]);
});
