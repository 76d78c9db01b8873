/**
 * A reused id is not a rename (issue 41, point 1), through the real `pulumi` CLI against an emulator that gives a
 * deleted zone's id to the next zone made (`reuseIds`). Another name at a zone's id is repaired by the next `up` only
 * when a value the service keeps per zone proves it the same zone; otherwise the refresh marks it, the drift check
 * says so (exit 7), and no update or delete reaches the id until a person confirms it (`CDN_CONFIRM_IDS`) in a later
 * run than the one that found it (resources/host/recorded.ts; docs/resources.md, "Zone identity").
 */
import type { Emulator } from "../support/emulator";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, type StateResource, type ZoneDecl } from "../support/engine";

const emu = useEmulator({ reuseIds: true });
const E = (): Emulator => emu.get();
const suffix = `${process.pid % 997}`;
const PASSWORD = "Cam-Pass-1";
/** The GitOps workflow's `up` job runs the program for its refresh (examples/gitops/.github/workflows/cdn-zones.yml). */
const GITOPS = { PULUMI_RUN_PROGRAM: "true" };
const live = (name: string): ZoneDecl => ({
  kind: "LiveZone",
  name,
  args: { name: `${name}-${suffix}`, password: PASSWORD },
});
const pull = (name: string, origin: string): ZoneDecl => ({
  kind: "PullZone",
  name,
  args: { name: `${name}-${suffix}`, origin },
});
/** The program: three live zones, two pull zones (one origin changes: an unrelated change a merge brings). */
const program = (origin = "https://origin.example.com", without: string[] = []): ZoneDecl[] =>
  [live("cam1"), live("cam2"), live("cam3"), pull("site", origin), pull("www", "https://origin.example.com")].filter(
    (z) => !without.includes(z.name),
  );
/** Resources a test gave up, as its way out says (`pulumi state delete <urn>`): later programs leave them out. */
const dropped: string[] = [];
const CHANGED = () => program("https://changed.example.com", dropped);

/** Calls that wrote to zone `id` (update or delete: their first parameter is the id). */
const writesTo = (id: number) =>
  E().calls.filter((c) => /\.(update|delete)$/.test(c.method) && c.params[0] === id).length;
let p: EngineProject;
const stored = async (name: string) =>
  (await p.resources()).find((r: StateResource) => r.urn.endsWith(`::${name}`))!.outputs!;
const idOf = (name: string) => E().zoneByName("live", `${name}-${suffix}`)!.id;
const urnOf = async (name: string) => (await p.resources()).find((r) => r.urn.endsWith(`::${name}`))!.urn;
/** The way out for a zone that is not this stack's: the resource leaves the state and the program. */
async function giveUp(name: string): Promise<void> {
  await p.must(["state", "delete", await urnOf(name), "--yes"]);
  dropped.push(name);
}

/** Deletes the stack's live zone in the control panel and makes another team's, which the service gives its id. */
async function reuse(name: string): Promise<{ id: number; name: string }> {
  const id = idOf(name);
  await E().deleteZone("live", id);
  const other = await E().seedZone("live", { name: `other-${name}-${suffix}`, password: "Other-Pass-1" });
  expect(other.id).toBe(id);
  return other;
}
/** The other team's zone is as they made it: its name, its password, and no write from this stack reached it. */
function untouched(other: { id: number; name: string }, writesBefore: number): void {
  expect(
    E()
      .zones("live")
      .find((z) => z.id === other.id),
  ).toMatchObject({ name: other.name });
  expect(E().passwordMatches("live", other.id, "Other-Pass-1")).toBe(true);
  expect(writesTo(other.id)).toBe(writesBefore);
}

beforeAll(async () => {
  p = await EngineProject.create(E());
  expectOk(await p.up(program()));
});
afterAll(() => p?.dispose());

test("green, then an id given to another zone: the drift check exits 7 saying so, the GitOps up job of an unrelated merge fails naming the id and the confirmation, a destroy deletes nothing", async () => {
  expect((await p.preview(program(), ["--refresh", "--expect-no-changes"], { env: GITOPS })).code).toBe(0);
  const other = await reuse("cam1");
  const drift = await p.preview(program(), ["--refresh", "--expect-no-changes", "--diff"], { env: GITOPS });
  expect(drift.code).toBe(7);
  expect(drift.output).toContain(`id ${other.id} now holds a live zone named '${other.name}'`);
  expect(drift.output).toContain("nothing proves which");
  // The merge's job: `pulumi up --refresh --yes --skip-preview`, with the program's other change.
  const up = await p.up(CHANGED(), ["--refresh"], { env: GITOPS });
  expect(up.code).not.toBe(0);
  expect(up.output).toContain(`this run's refresh found that id ${other.id} holds '${other.name}'`);
  expect(up.output).toContain(`CDN_CONFIRM_IDS=${other.id}`);
  untouched(other, 0);
  // The rest of the merge is not asserted: steps under way finish, but the engine starts none after a failure
  // (no --continue-on-error), and whether site's update had started depends on scheduling.
  // The refresh's mark is in the state: a destroy of the resource refuses too.
  expect(await stored("cam1")).toMatchObject({ name: other.name, __unproven: expect.any(String) });
  const destroy = await p.destroy(["--target", await urnOf("cam1")]);
  expect(destroy.code).not.toBe(0);
  expect(destroy.output).toContain("Refusing to delete it: nothing was changed.");
  untouched(other, 0);
  await giveUp("cam1");
});

test("the same through `pulumi refresh`, then `pulumi up`: refused naming the id and the confirmation", async () => {
  const other = await reuse("cam2");
  const refresh = expectOk(await p.refresh(CHANGED()));
  expect(refresh.output).toContain(`id ${other.id} now holds a live zone named '${other.name}'`);
  const up = await p.up(CHANGED());
  expect(up.code).not.toBe(0);
  expect(up.output).toContain(`a refresh found that id ${other.id} holds '${other.name}'`);
  expect(up.output).toContain(`CDN_CONFIRM_IDS=${other.id}`);
  untouched(other, 0);
  await giveUp("cam2");
});

test("a live zone renamed by hand (nothing proves it): a confirmation in the run that found it is refused, in a later run it repairs the zone", async () => {
  const id = idOf("cam3");
  await E().editZone("live", id, { name: `cam3-${suffix}-renamed` });
  const env = { ...GITOPS, CDN_CONFIRM_IDS: `${id}` };
  const first = await p.up(CHANGED(), ["--refresh"], { env });
  expect(first.code).not.toBe(0);
  expect(first.output).toContain(`this run's refresh found that id ${id} holds 'cam3-${suffix}-renamed'`);
  expect(first.output).toContain("A confirmation counts only in a later run");
  expect(writesTo(id)).toBe(0);
  // A person has seen it (the failed job said it): the next run, confirmed, names the zone as the program does.
  expectOk(await p.up(CHANGED(), ["--refresh"], { env }));
  expect(
    E()
      .zones("live")
      .find((z) => z.id === id),
  ).toMatchObject({ name: `cam3-${suffix}` });
  expect(await stored("cam3")).not.toHaveProperty("__unproven");
});

test("a pull zone renamed by hand, its vanity IP its own: proven the same zone, the next up --refresh repairs it unconfirmed", async () => {
  const zone = E().zoneByName("pull", `site-${suffix}`)!;
  await E().editZone("pull", zone.id, { name: `site-${suffix}-renamed` });
  const up = expectOk(await p.up(CHANGED(), ["--refresh"], { env: GITOPS }));
  expect(up.output).toContain(
    `is now named 'site-${suffix}-renamed' in the account: recorded as drift (renamed outside`,
  );
  expect(up.output).toContain(
    `its vanityIp '${zone.vanity_ip}', recorded when it was made, is held by no other pull zone`,
  );
  expect(
    E()
      .zones("pull")
      .find((z) => z.id === zone.id),
  ).toMatchObject({ name: `site-${suffix}` });
});

test("an account whose zones share one vanity IP: a pull zone's id given to another zone proves nothing, and its origin is kept", async () => {
  const shared = await emu.another({ reuseIds: true, sharedVanityIp: true });
  const q = await EngineProject.create(shared, { stack: "shared" });
  try {
    const zones = [pull("site", "https://origin.example.com"), pull("www", "https://origin.example.com")];
    expectOk(await q.up(zones));
    const mine = shared.zoneByName("pull", `site-${suffix}`)!;
    await shared.deleteZone("pull", mine.id);
    const other = await shared.seedZone("pull", { name: `other-site-${suffix}`, origin: "https://theirs.example.com" });
    expect([other.id, other.vanity_ip]).toEqual([mine.id, mine.vanity_ip]);
    const up = await q.up(zones, ["--refresh"], { env: GITOPS });
    expect(up.code).not.toBe(0);
    expect(up.output).toContain(`its vanityIp '${mine.vanity_ip}' is held by 1 other pull zone too`);
    expect(up.output).toContain(`CDN_CONFIRM_IDS=${mine.id}`);
    expect(shared.zones("pull").find((z) => z.id === mine.id)).toMatchObject({
      name: other.name,
      origin: "https://theirs.example.com",
    });
  } finally {
    q.dispose();
  }
});
