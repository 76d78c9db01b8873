/**
 * Renames and replacements through the real `pulumi` CLI (docs/resources.md, "Renames and replacements").
 * The API cannot delete pull, push and VOD zones, so they are retainOnDelete: a rename without `aliases` leaves
 * the old zone in the account, and the preview marks its delete `[retain]` (issue 32). `pulumi up --replace` of
 * those kinds keeps the same zone, and says so; a live zone is replaced delete-first and ends as exactly one zone.
 * One stack lives through the file.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, zoneOps, zoneResources, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
let p: EngineProject;
beforeAll(async () => {
  p = await EngineProject.create(emu.get());
});
afterAll(() => p?.dispose());

const KINDS = { PullZone: "pull", PushZone: "push", VodZone: "vod", LiveZone: "live" } as const;
/** The four zones, auto-named, their resource names ending in `suffix`; `aliased` names the resources they were. */
const zones = (suffix: string, aliased?: string): ZoneDecl[] =>
  (
    [
      ["PullZone", "site", { origin: "https://origin.example.com" }],
      ["PushZone", "assets", { password: "push-secret-1" }],
      ["VodZone", "videos", { password: "vod-secret-1" }],
      ["LiveZone", "cam", { password: "live-secret-1" }],
    ] as const
  ).map(([kind, name, args]) => ({
    kind,
    name: name + suffix,
    args,
    opts: aliased === undefined ? undefined : { aliases: [{ name: name + aliased }] },
  }));
const creates = () => emu.get().calls.filter((c) => /^(pull|push|vod|live)zone\.create$/.test(c.method)).length;
const names = (kind: keyof typeof KINDS) =>
  emu
    .get()
    .zones(KINDS[kind])
    .map((z) => z.name)
    .sort();
/** The zone resources of the state: name, URN, zone id. */
const stored = async () =>
  zoneResources(await p.resources())
    .map((r) => ({ name: r.name, urn: r.urn, zoneId: r.outputs?.zoneId }))
    .sort((a, b) => a.name.localeCompare(b.name));
const replacing = (state: { name: string; urn: string }[], targets: string[]) =>
  targets.flatMap((t) => ["--replace", state.find((r) => r.name === t)!.urn]);
const RESOURCES = ["site", "assets", "videos"] as const;
const NOT_REPLACEABLE = [
  ["pull", "pull zone"],
  ["push", "push zone"],
  ["vod", "VOD zone"],
] as const;

test("pulumi up --replace of a pull, push or VOD zone keeps its zone: taken back, nothing created, the preview says why", async () => {
  expectOk(await p.up(zones("")));
  const before = { creates: creates(), state: await stored() };
  const r = expectOk(await p.up(zones(""), replacing(before.state, [...RESOURCES])));
  for (const [kind, label] of NOT_REPLACEABLE) {
    const [zone] = emu.get().zones(kind);
    expect(r.output).toContain(
      `${label} '${zone.name}' (id ${zone.id}) holds this resource's own auto-name: this stack made it, and its state no longer holds it`,
    );
    expect(r.output).toContain("or this is `pulumi up --replace`). This `up` takes it back");
    // Never the "set adopt" answer: adopting would only take the same zone again.
    expect(r.output).not.toContain("and this resource does not manage it");
  }
  // The replaced resources' deletes concern the zones their replacements took back: none is said to stay.
  expect(r.output).not.toContain("stay in the account");
  expect(creates()).toBe(before.creates);
  for (const [kind] of NOT_REPLACEABLE) expect(emu.get().zones(kind)).toHaveLength(1);
  expect(await stored()).toEqual(before.state);
});

test("pulumi up --replace of a live zone deletes it first and ends with exactly one live zone, of the same name", async () => {
  const [old] = emu.get().zones("live");
  const r = expectOk(await p.up(zones(""), replacing(await stored(), ["cam"])));
  expect(zoneOps(r.steps)).toEqual([
    "create-replacement cam",
    "delete-replaced cam",
    "replace cam",
    "same assets",
    "same site",
    "same videos",
  ]);
  const live = emu.get().zones("live");
  expect(live).toHaveLength(1);
  expect(live[0]).toMatchObject({ name: old.name });
  expect(live[0].id).not.toBe(old.id);
  expect((await stored()).find((s) => s.name === "cam")?.zoneId).toBe(live[0].id);
});

test("renaming without aliases: the preview marks each old zone's delete `[retain]`, and the up leaves it there", async () => {
  const old = Object.fromEntries(NOT_REPLACEABLE.map(([kind]) => [kind, emu.get().zones(kind)[0]]));
  const preview = expectOk(await p.preview(zones("2")));
  // The engine's plan: new resources, and the old ones deleted; the engine marks those it keeps in the account.
  expect(zoneOps(preview.steps)).toEqual([
    "create assets2",
    "create cam2",
    "create site2",
    "create videos2",
    "delete assets",
    "delete cam",
    "delete site",
    "delete videos",
  ]);
  for (const [type, name] of [
    ["PullZone", "site"],
    ["PushZone", "assets"],
    ["VodZone", "videos"],
  ])
    expect(preview.output).toMatch(new RegExp(`dynamic/cdn:${type} ${name} delete\\s*\\[retain\\]`));
  // A live zone is deleted by the rename: no mark.
  expect(preview.output).not.toMatch(/LiveZone cam delete\s*\[retain\]/);

  expectOk(await p.up(zones("2")));
  // What the preview showed: a second zone of each kind the API cannot delete, exactly one live zone.
  expect(names("PullZone")).toEqual([old.pull.name, expect.stringMatching(/^site2-[a-z0-9]{7}$/)]);
  expect(names("PushZone")).toEqual([old.push.name, expect.stringMatching(/^assets2-[a-z0-9]{7}$/)]);
  expect(names("VodZone")).toEqual([old.vod.name, expect.stringMatching(/^videos2-[a-z0-9]{7}$/)]);
  expect(names("LiveZone")).toEqual([expect.stringMatching(/^cam2-[a-z0-9]{7}$/)]);
});

test("renaming with aliases keeps each zone: no create, one zone per resource, no warning", async () => {
  const before = { creates: creates(), zones: (Object.keys(KINDS) as (keyof typeof KINDS)[]).map(names) };
  const was = await stored();
  const r = expectOk(await p.up(zones("3", "2")));
  expect(zoneOps(r.steps)).toEqual(["same assets3", "same cam3", "same site3", "same videos3"]);
  expect(creates()).toBe(before.creates);
  expect((Object.keys(KINDS) as (keyof typeof KINDS)[]).map(names)).toEqual(before.zones);
  expect(r.output).not.toContain("warning");
  expect((await stored()).map((s) => [s.name, s.zoneId])).toEqual(was.map((s) => [s.name.replace("2", "3"), s.zoneId]));
});

test("pulumi up --replace of a pull zone renamed with aliases: a new zone, the old one kept `[retain]`, as the preview shows", async () => {
  // The replacement's auto-name is its new resource name's, so no zone of its own is there to take back; the API
  // cannot delete the old zone, which the engine keeps (retainOnDelete) and marks.
  const before = { creates: creates(), state: await stored() };
  const old = emu
    .get()
    .zones("pull")
    .find((z) => z.name.startsWith("site2-"))!;
  const preview = expectOk(await p.preview(zones("3", "2"), replacing(before.state, ["site3"])));
  expect(preview.output).toMatch(/dynamic\/cdn:PullZone site3 (delete-replaced|replace).*\[retain\]/);
  expectOk(await p.up(zones("3", "2"), replacing(before.state, ["site3"])));
  expect(creates()).toBe(before.creates + 1);
  expect(
    emu
      .get()
      .zones("pull")
      .some((z) => z.id === old.id),
  ).toBe(true);
  expect((await stored()).find((r) => r.name === "site3")?.zoneId).not.toBe(old.id);
});
