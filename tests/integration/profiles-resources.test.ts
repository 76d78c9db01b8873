/**
 * The zone resources' main scenarios against every compatibility profile of the emulator (issue 11):
 * whatever plausible shape the service answers in (bare create structs with string ids, create errors
 * as faults, booleans as 1/0, live rows carrying only `id`), create, refresh, update, "name in use",
 * adopt and a lost answer's recovery give the same results. In process, through
 * `handle(1, kind, op, args)`.
 */
import { startEmulator } from "../../provider/emulator";
import { COMPAT_PROFILES } from "../../provider/emulator/compat";
import { accountConfig, deployment } from "../support/handle";
import { exampleArgs, exampleValues, GROUP, hasPassword, KIND_OF, KINDS, type Kind } from "../support/kinds";
import { ZONE_KIND_TABLE } from "../../provider/api/zoneKinds";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
const PASSWORD = "Zone-Pa55word-1";
/** Each kind's row example with a label and a known password, and what a pull zone typically sets besides. */
const ARGS = Object.fromEntries(
  KINDS.map((k) => {
    const { name: _, ...example } = exampleArgs(k, "");
    const args: Record<string, string> = { ...example, label: k.toLowerCase() };
    if (hasPassword(k)) args.password = PASSWORD;
    return [k, k === "PullZone" ? { ...args, vhost: "www.example.com", compress: "1" } : args];
  }),
) as Record<Kind, Record<string, string>>;

// `rollup` reshapes only reports and bandwidth (emulator/compat.ts): its zone answers are the default's.
describe.each(COMPAT_PROFILES.filter((p) => p !== "rollup").map((p) => [p]))("profile %s", (profile) => {
  let emu: Emu;
  beforeAll(async () => {
    process.env.CDN_LOG = "quiet";
    emu = await startEmulator({ port: 0, compat: profile });
  });
  afterAll(async () => {
    await emu.close();
  });

  test.each(KINDS.map((k) => [k]))("%s: create, refresh with no change, rename, refresh", async (kind) => {
    const d = deployment(accountConfig(emu));
    const name = `${kind.toLowerCase()}-${profile}`;
    const made = await d.up(kind, { name, ...ARGS[kind] });
    const zone = emu.zones(GROUP[kind]).find((z) => String(z.id) === made.id)!;
    expect(zone.name).toBe(name);
    expect(made.outs).toMatchObject({ name, zoneId: zone.id });

    const read = await deployment(accountConfig(emu)).read(kind, made.id, made.outs);
    // Whatever the rows carry (a live row may carry only its id), the zone reads as it was: no false drift.
    expect(read.id).toBe(made.id);
    expect(read.props.name).toBe(name);
    expect(await d.diff(kind, made.id, read.props, made.inputs)).toMatchObject({ changes: false });

    const rename = () => d.update(kind, made.id, read.props, { ...made.inputs, name: `${name}-b` });
    // Rows of ids only cannot show the zone at the id is this one: an update needs it confirmed (issue 41, point 4).
    const idsOnly = profile === "legacy" && ZONE_KIND_TABLE[KIND_OF[kind]].rowsMayOmitFields;
    if (idsOnly) await expect(rename()).rejects.toThrow(`CDN_CONFIRM_IDS=${made.id}`);
    process.env.CDN_CONFIRM_IDS = idsOnly ? made.id : "";
    const outs = await rename().finally(() => delete process.env.CDN_CONFIRM_IDS);
    expect(emu.zones(GROUP[kind]).find((z) => z.id === zone.id)!.name).toBe(`${name}-b`);
    expect((await deployment(accountConfig(emu)).read(kind, made.id, outs)).props.name).toBe(`${name}-b`);
  });

  // A kind whose rows may be bare ids (the legacy profile's live rows) has no id to name in the refusal.
  test.each(KINDS.filter((k) => !ZONE_KIND_TABLE[KIND_OF[k]].rowsMayOmitFields).map((k) => [k]))(
    "%s: a name in use is refused with the id, and adopted with adopt: true",
    async (kind) => {
      const name = `taken-${kind.toLowerCase()}-${profile}`;
      const values = exampleValues(kind, name);
      if (hasPassword(kind)) values.password = "Their-Pa55word";
      const seeded = await emu.seedZone(GROUP[kind], values);
      const d = deployment(accountConfig(emu));
      await expect(d.up(kind, { name, ...ARGS[kind] })).rejects.toThrow(`(id ${seeded.id})`);
      expect((await d.up(kind, { name, ...ARGS[kind], adopt: true })).id).toBe(String(seeded.id));
    },
  );

  test("a name taken after the deployment's snapshot: the create's error (a fault in legacy) is 'name in use' with the id", async () => {
    const name = `late-${profile}`;
    const d = deployment(accountConfig(emu));
    expect((await d.check("PushZone", {}, { name, ...ARGS.PushZone })).failures).toEqual([]);
    const seeded = await emu.seedZone("pushzone", { name, password: "Their-Pa55word" });
    await expect(d.create("PushZone", { name, ...ARGS.PushZone })).rejects.toThrow(
      `push zone '${name}' already exists in the account (id ${seeded.id})`,
    );
    expect(emu.passwordMatches("pushzone", seeded.id, "Their-Pa55word")).toBe(true);
  });

  test("a pull zone whose create answer was lost is found and taken over", async () => {
    const name = `lost-${profile}`;
    emu.faults.once({ method: "pullzone.create", when: "after", as: "reset" });
    const made = await deployment(accountConfig(emu)).up("PullZone", { name, ...ARGS.PullZone });
    expect(
      emu
        .zones("pullzone")
        .filter((z) => z.name === name)
        .map((z) => String(z.id)),
    ).toEqual([made.id]);
  });
});
