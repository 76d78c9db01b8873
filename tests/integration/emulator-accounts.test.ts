/**
 * What the zone-identity cases need from the emulator, over real HTTP: names with capitals
 * that are unique without regard to case, and two emulators standing for two accounts whose
 * zone ids overlap, each with its own credentials and company.
 */
import { FAULT } from "../../provider/api/wire";
import { startEmulator, type Emulator } from "../../provider/emulator";
import { signedCall } from "../support/emulator";
import { perGroup, ZONE_GROUPS, type ZoneGroup } from "../../provider/api/kinds";
import { ZONE_KIND_TABLE } from "../../provider/api/zoneKinds";
import { exampleValues } from "../support/kinds";

function call(emu: Emulator, wire: string, ...params: unknown[]): Promise<any> {
  return callAs(emu, emu.apiUserId, emu.apiKey, wire, ...params);
}

function callAs(emu: Emulator, apiUserId: number, apiKey: string, wire: string, ...params: unknown[]): Promise<any> {
  return signedCall(emu, { apiUserId, apiKey })(wire, ...params);
}

/** A valid zone of each group's kind, and its "name in use" code: from the kinds' table. */
const VALUES = perGroup((k) => (name: string) => exampleValues(k, name));
const IN_USE = perGroup((k) => ZONE_KIND_TABLE[k].createErrors.nameInUse as number);

describe("zone names with capitals", () => {
  let emu: Emulator;
  beforeAll(async () => {
    emu = await startEmulator();
  });
  afterAll(() => emu.close());

  it.each(ZONE_GROUPS)("%s: keeps the case given, and a name in another case is in use", async (kind) => {
    const [code, created] = await call(emu, `${kind}.create`, VALUES[kind]("ShopAssets"));
    expect(code).toBe(0);
    expect((await call(emu, `${kind}.listZones`)).find((z: { id: number }) => z.id === created.id).name).toBe(
      "ShopAssets",
    );
    if (kind === "pullzone") expect(created.cdn_url).toBe("shopassets.acme.cdn.example.net");
    expect(await call(emu, `${kind}.create`, VALUES[kind]("shopassets"))).toEqual([
      IN_USE[kind],
      "shopassets is already in use",
    ]);
    expect(await call(emu, `${kind}.create`, VALUES[kind]("SHOPASSETS"))).toEqual([
      IN_USE[kind],
      "SHOPASSETS is already in use",
    ]);
    expect(emu.zoneByName(kind, "shopASSETS")?.id).toBe(created.id);
    await expect(emu.seedZone(kind, VALUES[kind]("shopassets"))).rejects.toThrow(
      `seedZone ${kind}: ${IN_USE[kind]} shopassets is already in use`,
    );
  });

  it("refuses a rename through update onto a name in use in another case, and allows a zone to change its own case", async () => {
    const [, holder] = await call(emu, "pushzone.create", { name: "brand", password: "pw" });
    const [, other] = await call(emu, "pushzone.create", { name: "other-brand", password: "pw" });
    expect(await call(emu, "pushzone.update", other.id, { name: "BRAND" })).toBe(1);
    expect(emu.zones("pushzone").find((z) => z.id === other.id)?.name).toBe("other-brand");
    expect(await call(emu, "pushzone.update", holder.id, { name: "Brand" })).toBe(0);
    expect(emu.zoneByName("pushzone", "BRAND")).toMatchObject({ id: holder.id, name: "Brand" });
    await expect(emu.editZone("pushzone", other.id, { name: "bRaNd" })).rejects.toThrow(/bRaNd is already in use/);
  });

  it("still refuses what is not a DNS label", async () => {
    expect(await call(emu, "livezone.create", VALUES.livezone("Shop_Assets"))).toEqual([
      5001,
      expect.stringContaining("may contain only letters, digits and hyphens"),
    ]);
    expect(await call(emu, "livezone.create", VALUES.livezone("-Shop"))).toEqual([5001, expect.any(String)]);
  });
});

describe("two emulators as two accounts", () => {
  const open: Emulator[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((e) => e.close()));
  });
  const start = async (options: Parameters<typeof startEmulator>[0]) => {
    const emu = await startEmulator(options);
    open.push(emu);
    return emu;
  };

  it("hand out the same ids for different zones, each with its own credentials and company", async () => {
    const a = await start({});
    const b = await start({ apiUserId: 7100, apiKey: "second-account-key", companyAlias: "globex", companyId: 9 });
    expect([a.companyAlias, a.companyId, b.companyAlias, b.companyId]).toEqual(["acme", 1, "globex", 9]);
    const [, za] = await call(a, "pullzone.create", VALUES.pullzone("site-a"));
    const [, zb] = await call(b, "pullzone.create", VALUES.pullzone("site-b"));
    expect(za.id).toBe(zb.id);
    expect(za.cdn_url).toBe("site-a.acme.cdn.example.net");
    expect(zb.cdn_url).toBe("site-b.globex.cdn.example.net");
    // Each account knows only its own credentials.
    await expect(callAs(b, a.apiUserId, a.apiKey, "pullzone.listZones")).rejects.toMatchObject({
      faultCode: FAULT.AUTH_FAILED,
      faultString: expect.stringContaining(`unknown apiUserId ${a.apiUserId}`),
    });
    await expect(callAs(b, b.apiUserId, a.apiKey, "pullzone.listZones")).rejects.toMatchObject({
      faultCode: FAULT.AUTH_FAILED,
    });
    expect((await call(b, "user.listUsers"))[0]).toMatchObject({ id: 7100, email: "api@globex.example.com" });
    expect(await call(b, "report.getNodeHits", 9, "2024-01-01", "2024-01-01", zb.id)).toHaveLength(12);
    await expect(call(b, "report.getNodeHits", "acme", "2024-01-01", "2024-01-01", zb.id)).rejects.toMatchObject({
      faultCode: FAULT.NOT_FOUND,
    });
  });

  it("firstZoneId lines the ids up when one account already has zones", async () => {
    const a = await start({});
    for (const name of ["one", "two", "three"]) await call(a, "livezone.create", VALUES.livezone(name));
    const b = await start({ firstZoneId: a.zoneByName("livezone", "two")!.id, apiUserId: 5 });
    const [, made] = await call(b, "vodzone.create", VALUES.vodzone("elsewhere"));
    expect(made.id).toBe(a.zoneByName("livezone", "two")!.id);
    // reset() keeps counting from where the store was, never back to firstZoneId.
    await b.reset();
    const [, next] = await call(b, "vodzone.create", VALUES.vodzone("after-reset"));
    expect(next.id).toBe(made.id + 1);
  });

  it("keeps every id within an int32: the id after INT32_MAX is an INTERNAL_ERROR, not an unreadable <int>", async () => {
    const emu = await start({ firstZoneId: 2147483647 });
    const [, last] = await call(emu, "livezone.create", VALUES.livezone("last"));
    expect(last.id).toBe(2147483647);
    await expect(call(emu, "livezone.create", VALUES.livezone("beyond"))).rejects.toMatchObject({
      faultCode: FAULT.INTERNAL_ERROR,
      faultString: expect.stringContaining("zone ids are exhausted"),
    });
    expect(emu.zones("livezone").map((z) => z.name)).toEqual(["last"]);
  });

  it("refuses ids that do not fit an int32", async () => {
    await expect(startEmulator({ apiUserId: 2147483646 })).rejects.toThrow(
      "startEmulator: apiUserId must be an integer from 1 to 2147483645",
    );
    await expect(startEmulator({ companyId: 2 ** 31 })).rejects.toThrow(
      /companyId must be an integer from 1 to 2147483647/,
    );
    await expect(startEmulator({ firstZoneId: 0 })).rejects.toThrow(/firstZoneId must be an integer from 1/);
    await expect(startEmulator({ companyAlias: "-acme" })).rejects.toThrow(/companyAlias must be a DNS label/);
  });
});

describe("per-zone values and ids given again (issue 41)", () => {
  const open: Emulator[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((e) => e.close()));
  });
  const start = async (options: Parameters<typeof startEmulator>[0] = {}) => {
    const emu = await startEmulator(options);
    open.push(emu);
    return emu;
  };
  const row = async (emu: Emulator, group: ZoneGroup, id: number) =>
    ((await call(emu, `${group}.listZones`)) as { id: number }[]).find((z) => z.id === id);

  it("reuseIds: a create takes the id deleted last, with values of its own, never the deleted zone's", async () => {
    const emu = await start({ reuseIds: true });
    const [, gone] = await call(emu, "pushzone.create", VALUES.pushzone("gone"));
    const before = await row(emu, "pushzone", gone.id);
    await emu.deleteZone("push", gone.id);
    const [, again] = await call(emu, "pushzone.create", VALUES.pushzone("again"));
    expect(again.id).toBe(gone.id);
    expect(again.vanity_ip).not.toBe(gone.vanity_ip);
    expect(await row(emu, "pushzone", gone.id)).toMatchObject({ name: "again", vanity_ip: again.vanity_ip });
    expect((await row(emu, "pushzone", gone.id)) as object).not.toEqual(before);
    // The API's delete frees an id too, and a seeded zone (made in the control panel) takes it.
    const [, cam] = await call(emu, "livezone.create", VALUES.livezone("cam"));
    expect(await call(emu, "livezone.delete", cam.id)).toBe(0);
    expect((await emu.seedZone("live", VALUES.livezone("other"))).id).toBe(cam.id);
    // Nothing freed: the next id, as without the option.
    const [, next] = await call(emu, "livezone.create", VALUES.livezone("next"));
    expect(next.id).toBe(cam.id + 1);
  });

  it("without reuseIds no id is given again; vanity_ip is drawn per zone, and sharedVanityIp gives every zone one", async () => {
    const emu = await start();
    const [, a] = await call(emu, "pullzone.create", VALUES.pullzone("a"));
    await emu.deleteZone("pull", a.id);
    const [, b] = await call(emu, "pullzone.create", VALUES.pullzone("b"));
    expect(b.id).toBe(a.id + 1);
    const ips = [];
    for (let i = 0; i < 20; i++) ips.push((await call(emu, "pullzone.create", VALUES.pullzone(`z${i}`)))[1].vanity_ip);
    expect(new Set([a.vanity_ip, b.vanity_ip, ...ips]).size).toBe(22);
    for (const ip of ips) expect(ip).toMatch(/^198\.(18|19)\.\d{1,3}\.\d{1,3}$/);
    const shared = await start({ sharedVanityIp: true });
    const made = [];
    for (const name of ["s1", "s2"]) made.push((await call(shared, "pullzone.create", VALUES.pullzone(name)))[1]);
    made.push((await call(shared, "pushzone.create", VALUES.pushzone("s3")))[1]);
    expect(new Set(made.map((z) => z.vanity_ip))).toEqual(new Set(["203.0.113.10"]));
    await expect(startEmulator({ reuseIds: "yes" as never })).rejects.toThrow(
      "startEmulator: reuseIds must be a boolean",
    );
  });
});
