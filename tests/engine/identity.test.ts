/**
 * A zone is changed only when it is provably the one in the state, through the real `pulumi` CLI (issue 25,
 * point 1; resources/host/recorded.ts). Each test points a resource's recorded id at another zone, as a state
 * copied from another stack, an old backup or an id given again after a delete would, with `pulumi stack export`
 * and `pulumi stack import`, then runs what a user runs: the other zone is never changed or deleted, and the
 * command fails naming both zones. The same rules in process: tests/integration/recorded-identity.test.ts.
 */
import type { Emulator } from "../support/emulator";
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, type StateResource, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
let p: EngineProject;
const suffix = `${process.pid % 997}`;
const ZONES: ZoneDecl[] = [
  { kind: "PullZone", name: "site", args: { name: `site-${suffix}`, origin: "https://origin.example.com" } },
  { kind: "PushZone", name: "assets", args: { name: `assets-${suffix}`, password: "Assets-Pass-1", label: "a" } },
  { kind: "LiveZone", name: "cam", args: { name: `cam-${suffix}`, password: "Cam-Pass-1" } },
];
/** The zones of another team in the same account. */
let foreign: {
  pull: { id: number; name: string };
  push: { id: number; name: string };
  live: { id: number; name: string };
};
let original: StateResource[];

const E = (): Emulator => emu.get();
const writes = () => E().calls.filter((c) => /\.(create|update|delete)$/.test(c.method)).length;
const byName = (rs: StateResource[], name: string) => rs.find((r) => r.urn.endsWith(`::${name}`))!;
/** Points a resource's recorded id (its id and its zoneId output) at `id`. */
const pointAt = (name: string, id: number) =>
  p.editState((rs) => {
    const r = byName(rs, name);
    r.id = String(id);
    r.outputs!.zoneId = id;
  });
const restore = () =>
  p.editState((rs) => {
    for (const r of rs) {
      const was = original.find((o) => o.urn === r.urn);
      if (was) Object.assign(r, { id: was.id, outputs: was.outputs });
    }
  });

beforeAll(async () => {
  p = await EngineProject.create(E());
  const pull = await E().seedZone("pullzone", { name: `adv-pull-${suffix}`, origin: "https://adv.example.com" });
  const push = await E().seedZone("pushzone", { name: `adv-push-${suffix}`, password: "Adv-Pass-1", label: "theirs" });
  const live = await E().seedZone("livezone", { name: `adv-live-${suffix}`, password: "Adv-Pass-1" });
  foreign = { pull, push, live };
  expectOk(await p.up(ZONES));
  original = (await p.resources()).map((r) => JSON.parse(JSON.stringify(r)) as StateResource);
});
afterAll(() => p?.dispose());
afterEach(() => restore());

test("pulumi up after a push zone's id was pointed at another push zone: that zone keeps its values", async () => {
  await pointAt("assets", foreign.push.id);
  const before = writes();
  const changed = ZONES.map((z) => (z.name === "assets" ? { ...z, args: { ...z.args, label: "b" } } : z));
  const r = await p.up(changed);
  expect(r.code).not.toBe(0);
  expect(r.output).toContain(
    `push zone 'assets-${suffix}' (id ${foreign.push.id}): id ${foreign.push.id} is now push zone '${foreign.push.name}'`,
  );
  expect(r.output).toContain("Refusing to update it: nothing was changed.");
  expect(writes()).toBe(before);
  expect(
    E()
      .zones("push")
      .find((z) => z.id === foreign.push.id),
  ).toMatchObject({ label: "theirs" });
});

test("pulumi up --refresh with a live zone's id pointed at another live zone: the up fails, nothing is renamed", async () => {
  await pointAt("cam", foreign.live.id);
  const before = writes();
  const r = await p.up(ZONES, ["--refresh"]);
  expect(r.code).not.toBe(0);
  expect(r.output).toContain(
    `live zone 'cam-${suffix}' (id ${foreign.live.id}): id ${foreign.live.id} is now live zone '${foreign.live.name}'`,
  );
  expect(writes()).toBe(before);
  expect(
    E()
      .zones("live")
      .find((z) => z.id === foreign.live.id),
  ).toMatchObject({ name: foreign.live.name });
});

test("refresh: a pull zone's id at another pull zone, a push zone's at a live zone: said, neither drift nor deleted, and the next up refuses", async () => {
  await pointAt("site", foreign.pull.id);
  await pointAt("assets", foreign.live.id);
  // One zone's problem never fails the refresh of the others (issue 32): the refresh names both zones and goes on.
  const r = await p.refresh(ZONES);
  expectOk(r);
  expect(r.output).toContain(`id ${foreign.pull.id} is now pull zone '${foreign.pull.name}'`);
  const assets = byName(original, "assets");
  expect(r.output).toContain(
    `pushzone.listZones has no zone with id ${foreign.live.id}, and push zone 'assets-${suffix}' (id ${assets.outputs!.zoneId}) is listed`,
  );
  // The state still records both resources, with what they held: no drift taken, nothing dropped as deleted.
  const now = await p.resources();
  expect(byName(now as StateResource[], "site").outputs).toMatchObject({ origin: "https://origin.example.com" });
  expect(byName(now as StateResource[], "assets")).toBeDefined();
  // The drift check fails on them, and the up that follows changes neither foreign zone.
  expect((await p.preview(ZONES, ["--expect-no-changes"])).code).toBe(7);
  const before = writes();
  const up = await p.up(ZONES);
  expect(up.code).not.toBe(0);
  expect(up.output).toContain("Refusing to update it: nothing was changed.");
  expect(writes()).toBe(before);
  expect(
    E()
      .zones("pull")
      .find((z) => z.id === foreign.pull.id),
  ).toMatchObject({ name: foreign.pull.name, origin: "https://adv.example.com" });
});

test("pulumi destroy --target of a live zone whose id was pointed at another: the other is not deleted", async () => {
  await pointAt("cam", foreign.live.id);
  const urn = byName(original, "cam").urn;
  const r = await p.destroy(["--target", urn]);
  expect(r.code).not.toBe(0);
  expect(r.output).toContain("Refusing to delete it: nothing was changed.");
  const live = E()
    .zones("live")
    .map((z) => z.id);
  expect(live).toContain(foreign.live.id);
  expect(live).toContain(byName(original, "cam").outputs!.zoneId);
});

// Issue 33, point 3: the holes of the identity check, through the real CLI.
test("a recorded name that is missing, empty, null or a number is a mismatch: destroy --target deletes nothing", async () => {
  const urn = byName(original, "cam").urn;
  for (const name of [undefined, "", null, 42]) {
    await p.editState((rs) => {
      const r = byName(rs, "cam");
      r.id = String(foreign.live.id);
      r.outputs!.zoneId = foreign.live.id;
      if (name === undefined) delete r.outputs!.name;
      else r.outputs!.name = name;
    });
    const before = writes();
    const r = await p.destroy(["--target", urn]);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("the state records no name for it");
    expect(writes()).toBe(before);
    expect(
      E()
        .zones("live")
        .some((z) => z.id === foreign.live.id),
    ).toBe(true);
    await restore();
  }
});

test("a state without its account fingerprint, pointed at another account whose zone has the same id and name: not written", async () => {
  const other = await emu.another();
  const mine = byName(original, "site");
  // Another account holds a zone of the same id and name (ids are small integers in every account).
  for (let i = 1; i < Number(mine.id); i++)
    await other.seedZone("pullzone", { name: `filler-${i}`, origin: "https://x.example.com" });
  const twin = await other.seedZone("pullzone", {
    name: String(mine.outputs!.name),
    origin: "https://theirs.example.com",
  });
  expect(String(twin.id)).toBe(mine.id);
  await p.editState((rs) => {
    delete byName(rs, "site").outputs!.account;
  });
  await p.pointAt(other);
  try {
    const changed = ZONES.map((z) =>
      z.name === "site" ? { ...z, args: { ...z.args, origin: "https://changed.example.com" } } : z,
    );
    const r = await p.up(changed, ["--target", mine.urn]);
    expect(r.code).not.toBe(0);
    expect(r.output).toContain("the state records no account for it");
    expect(other.zones("pull").find((z) => z.id === twin.id)).toMatchObject({ origin: "https://theirs.example.com" });
  } finally {
    await p.pointAt(E());
    // The failed up recorded the other account's settings as the provider's: an up records this one's again.
    await p.up(ZONES);
  }
});

test("a foreign zone whose name differs only in case at the recorded id: refresh marks it unproven, and destroy deletes nothing", async () => {
  const cam = byName(original, "cam");
  const upper = String(cam.outputs!.name).toUpperCase();
  // The zone at our id is now named as ours in another case: on a server with case-sensitive names, another zone.
  await E().editZone("live", Number(cam.id), { name: upper });
  try {
    const r = await p.refresh(ZONES);
    expectOk(r);
    // A live zone has no value of its own to prove a rename (issue 41): nothing is written to it unconfirmed.
    expect(r.output).toContain(`id ${cam.id} now holds a live zone named '${upper}'`);
    const before = writes();
    const d = await p.destroy(["--target", cam.urn]);
    expect(d.code).not.toBe(0);
    expect(d.output).toContain(`a refresh found that id ${cam.id} holds '${upper}', which nothing proves`);
    expect(writes()).toBe(before);
    expect(
      E()
        .zones("live")
        .some((z) => z.id === Number(cam.id)),
    ).toBe(true);
  } finally {
    await E().editZone("live", Number(cam.id), { name: String(cam.outputs!.name) });
  }
});
