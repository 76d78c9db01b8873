/**
 * Resource options and reads through the real `pulumi` CLI (tests/fixtures/engine/zones-options.js, which adds
 * components and options naming other resources to the zones fixture): `Resource.get` of a zone that exists
 * and of one that does not; the `import` option, refused when the resource is constructed; `adopt: true` over
 * a zone made in the control panel; a managed live zone turned into a `get` of another zone (kept, not
 * deleted); and destroy with `protect`, `retainOnDelete` (own and inherited from a component) and
 * `deletedWith`. One stack lives through the file's tests, in order. Each test names the engine's step ops.
 */
import { useEmulator } from "../support/emulator";
import { EngineProject, expectOk, type EngineStep, type ZoneDecl } from "../support/engine";

const emu = useEmulator();
let p: EngineProject;
beforeAll(async () => {
  p = await EngineProject.create(emu.get(), { program: "tests/fixtures/engine/zones-options.js" });
});
afterAll(() => p?.dispose());

/** A component of the fixture program (`{ kind: "Component", name, opts }`). */
const component = (name: string, opts: Record<string, unknown>) =>
  ({ kind: "Component", name, opts }) as unknown as ZoneDecl;
/** `<op> <resource name>` of every step but the stack's, the default provider's and the StackId's, sorted. */
const ops = (steps: EngineStep[]) =>
  steps
    .filter((s) => s.type !== "pulumi:pulumi:Stack" && !/^pulumi:providers:|:StackId$/.test(s.type))
    .map((s) => `${s.op} ${s.name}`)
    .sort();
const calls = (method: string) => emu.get().calls.filter((c) => c.method === method);
const writes = () => emu.get().calls.filter((c) => /^(pull|push|vod|live)zone\.(create|update|delete)$/.test(c.method));
const liveNames = () =>
  emu
    .get()
    .zones("live")
    .map((z) => z.name)
    .sort();

let handmade: { id: number; name: string };
const PULL = { name: "handmade", origin: "https://hand.example.com" };

test("Resource.get of an existing zone reads it: the outputs are the account's; a missing id fails naming it", async () => {
  handmade = await emu.get().seedZone("pull", PULL);
  const r = expectOk(await p.up([{ kind: "PullZone", name: "seen", get: handmade.id }]));
  expect(ops(r.steps)).toEqual(["read seen"]);
  const out = (await p.outputs()).seen;
  const zone = emu.get().zones("pull")[0];
  expect(out).toEqual({
    zoneId: zone.id,
    name: zone.name,
    origin: zone.origin,
    account: `${emu.get().apiUserId}@${new URL(emu.get().url).host}`,
  });

  const missing = await p.up([{ kind: "PullZone", name: "seen", get: 999999 }]);
  expect(missing.code).not.toBe(0);
  expect(missing.output).toContain("PullZone.get: no pull zone with id 999999 in the account");
  expect(writes()).toEqual([]);
});

test("the import option is refused when the resource is constructed, naming adopt and cdn-zones import; nothing is made", async () => {
  const before = emu.get().calls.length;
  const r = await p.up([{ kind: "PullZone", name: "imported", args: PULL, opts: { import: String(handmade.id) } }]);
  expect(r.code).not.toBe(0);
  expect(r.output).toContain(
    "PullZone 'imported': the `import` resource option cannot work with this dynamic resource",
  );
  expect(r.output).toContain("`adopt: true`");
  expect(r.output).toContain("`npx --no-install cdn-zones import`");
  // Without the refusal the engine's import reaches the SDK's host, which fails without the provider's code.
  expect(r.output).not.toMatch(/toJavaScript|code must be a string/);
  expect(ops(r.steps)).toEqual([]);
  expect(
    emu
      .get()
      .calls.slice(before)
      .map((c) => c.method),
  ).toEqual([]);
  expect((await p.resources()).map((s) => s.name)).not.toContain("imported");
});

// The program of the next tests: an adopted zone, and live zones under each delete option.
const LIVE = (name: string) => ({ name, password: "live-secret-1" });
const ZONES: ZoneDecl[] = [
  { kind: "PullZone", name: "adopted", args: { ...PULL, adopt: true } },
  { kind: "LiveZone", name: "guarded", args: LIVE("guarded"), opts: { protect: true } },
  { kind: "LiveZone", name: "kept", args: LIVE("kept"), opts: { retainOnDelete: true } },
  component("group", { retainOnDelete: true }),
  { kind: "LiveZone", name: "member", args: LIVE("member"), opts: { parent: "group" } },
  { kind: "LiveZone", name: "main", args: LIVE("main") },
  { kind: "LiveZone", name: "follower", args: LIVE("follower"), opts: { deletedWith: "main" } },
  { kind: "LiveZone", name: "cam", args: LIVE("cam") },
];

test("adopt: true takes over a zone made in the control panel without a second; the next up changes nothing", async () => {
  const r = expectOk(await p.up(ZONES));
  // An adopt is a create to the engine; the `get` of the first test, gone from the program, is discarded.
  expect(ops(r.steps)).toEqual([
    "create adopted",
    "create cam",
    "create follower",
    "create group",
    "create guarded",
    "create kept",
    "create main",
    "create member",
    "discard seen",
  ]);
  expect(
    emu
      .get()
      .zones("pull")
      .map((z) => z.id),
  ).toEqual([handmade.id]);
  expect(calls("pullzone.create")).toEqual([]);
  expect((await p.outputs()).adopted).toMatchObject({ zoneId: handmade.id, name: "handmade" });
  // A live zone with deletedWith is warned about: nothing would delete it.
  expect(r.output).toContain("LiveZone 'follower': deletedWith:");

  const again = await p.up(ZONES, ["--expect-no-changes"]);
  expect(again.code).toBe(0);
  expect(new Set(ops(again.steps).map((s) => s.split(" ")[0]))).toEqual(new Set(["same"]));
});

test("a managed live zone turned into a get of another zone: the engine deletes the managed one, the provider keeps it", async () => {
  const other = await emu.get().seedZone("live", LIVE("other"));
  const cam = emu.get().zoneByName("live", "cam")!;
  const program = ZONES.map((z) => (z.name === "cam" ? { kind: "LiveZone" as const, name: "cam", get: other.id } : z));

  const preview = expectOk(await p.preview(program));
  // The engine's plan: read the other zone, mark the managed one for deletion, delete it at the end.
  expect(ops(preview.steps).filter((s) => s.endsWith(" cam"))).toEqual([
    "delete-replaced cam",
    "read-replacement cam",
    "replace cam",
  ]);
  expect(calls("livezone.delete")).toEqual([]);

  const r = expectOk(await p.up(program));
  expect(ops(r.steps).filter((s) => s.endsWith(" cam"))).toEqual([
    "delete-replaced cam",
    "read-replacement cam",
    "replace cam",
  ]);
  expect(calls("livezone.delete")).toEqual([]);
  expect(emu.get().zoneByName("live", "cam")?.id).toBe(cam.id);
  expect(r.output).toContain(`live zone 'cam' (id ${cam.id}) was kept in the account, not deleted`);
  expect((await p.outputs()).cam).toMatchObject({ zoneId: other.id, name: "other" });
  ZONES.splice(ZONES.length - 1, 1, program[program.length - 1]);
});

test("destroy: protect refuses, retainOnDelete (own or inherited from a component) keeps, deletedWith skips the delete", async () => {
  const main = emu.get().zoneByName("live", "main")!;
  const r = await p.destroy();
  expect(r.code).not.toBe(0);
  expect(r.output).toContain(
    'resource "urn:pulumi:dev::cdnzones::pulumi-nodejs:dynamic/cdn:LiveZone::guarded" cannot be deleted',
  );
  // Retained deletes are `delete` steps too; the read `cam` is dropped from state (`discard`), never deleted.
  expect(ops(r.steps)).toEqual([
    "delete adopted",
    "delete follower",
    "delete group",
    "delete kept",
    "delete main",
    "delete member",
    "discard cam",
  ]);
  // Only `main` was deleted by the provider: `follower` (deletedWith main) was skipped by the engine and stays.
  expect(calls("livezone.delete").map((c) => c.params[0])).toEqual([main.id]);
  expect(liveNames()).toEqual(["cam", "follower", "guarded", "kept", "member", "other"]);
  expect(
    emu
      .get()
      .zones("pull")
      .map((z) => z.id),
  ).toEqual([handmade.id]);
  expect(
    (await p.resources())
      .filter((s) => s.custom && s.id && !/^pulumi:providers:|:StackId$/.test(s.type))
      .map((s) => s.name),
  ).toEqual(["guarded"]);

  expectOk(await p.run(["state", "unprotect", "--all", "--yes"]));
  const last = expectOk(await p.destroy());
  expect(ops(last.steps)).toEqual(["delete guarded"]);
  expect(liveNames()).toEqual(["cam", "follower", "kept", "member", "other"]);
});
