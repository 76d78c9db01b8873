/**
 * The functions' main scenarios against every compatibility profile of the emulator (issue 11):
 * zone listings and lookups, getUnmanagedZones, every report, bandwidth, users and purges give
 * the same typed results whatever plausible shape the server answers in. Then what is never an
 * answer: an auth failure, and "no rows" as 0.
 */
import { CdnAuthError, CdnClient, CdnError, CdnProtocolError } from "../../provider/api";
import { COMPAT_PROFILES, startEmulator } from "../../provider/emulator";
import { rpc, useScriptedServer, xmlAnswer } from "../support/scriptedServer";
import {
  getBandwidth,
  getCacheHitStats,
  getConnectionStats,
  getHourlyConnectionStats,
  getLiveZones,
  getNodeHits,
  getPopularFiles,
  getPullZones,
  getTotalHits,
  getTotalTransfer,
  getTotalTransferStats,
  getUnmanagedZones,
  getUsagePerDay,
  getUsers,
  getZone,
  purgeZone,
} from "../../provider/functions";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
const FROM = "2026-10-01";
const TO = "2026-10-07";

describe.each(COMPAT_PROFILES)("against the %s profile", (profile) => {
  // `rollup` answers zones as `default` does; only account-wide reports and bandwidth differ (emulator/compat.ts).
  const legacy = profile === "legacy";
  let emu: Emu;
  let client: CdnClient;
  let opts: { connection: CdnClient };
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, compat: profile });
    client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0 });
    opts = { connection: client };
    ids.www = (await emu.seedZone("pullzone", { name: "www", origin: "https://origin.example.com" })).id;
    ids.files = (await emu.seedZone("pushzone", { name: "files", password: "Pa55word-1" })).id;
    ids.stream = (await emu.seedZone("livezone", { name: "stream", password: "Pa55word-1" })).id;
  });
  afterAll(async () => {
    client.close();
    await emu.close();
  });

  test("listings and lookups", async () => {
    const pull = await getPullZones({}, opts);
    expect(pull.zones).toEqual([
      expect.objectContaining({ kind: "pull", zoneId: ids.www, name: "www", origin: "https://origin.example.com" }),
    ]);
    expect(await getZone({ kind: "PullZone", name: "www" }, opts)).toMatchObject({ zoneId: ids.www });
    const live = await getLiveZones({}, opts);
    expect(live.zones.map((z) => z.zoneId)).toEqual([ids.stream]);
    if (!legacy) expect(live.zones[0].name).toBe("stream");
    else {
      // Live rows carry only id: the name is absent, and a lookup by name says why it cannot work.
      expect(live.zones[0]).toEqual({ kind: "live", zoneId: ids.stream });
      await expect(getZone({ kind: "live", name: "stream" }, opts)).rejects.toThrow(/lists live zones by id only/);
    }
  });

  test("getUnmanagedZones", async () => {
    const r = await getUnmanagedZones({ managed: [ids.www] }, opts);
    expect(r.zones.map((z) => z.zoneId)).toEqual([ids.files, ids.stream]);
    expect(r).toMatchObject({ managedCount: 1, skippedKinds: [] });
  });

  test("totals", async () => {
    const t = await getTotalTransfer({ zoneId: ids.www, type: "range", from: FROM, to: TO }, opts);
    expect(t.hasData).toBe(true);
    expect(t.transfer).toBeGreaterThan(0);
    expect(t.rows[0].transfer).toBe(t.transfer);
    // The legacy profile sends its dates as dateTime.iso8601 with the Pacific offset: kept as sent.
    expect(t.rows[0].from).toBe(!legacy ? `${FROM} 00:00:00` : `${FROM}T00:00:00-07:00`);
    const h = await getTotalHits({ zoneId: ids.www, type: "range", from: FROM, to: TO }, opts);
    expect(h.hits).toBeGreaterThan(0);
  });

  test("every range report answers typed figures", async () => {
    const range = { companyId: "acme", dateFrom: FROM, dateTo: TO, zoneId: ids.www };
    const stats = await getTotalTransferStats({ ...range, sortBy: ["transfer DESC"] }, opts);
    expect(stats.rows).toHaveLength(7);
    const t = stats.rows.map((r) => r.transfer!);
    expect(t.every((x) => typeof x === "number")).toBe(true);
    expect(t).toEqual([...t].sort((a, b) => b - a));
    expect(stats.rows.every((r) => r.zoneId === ids.www && typeof r.date === "string")).toBe(true);

    const files = await getPopularFiles({ ...range, maxReturn: 5 }, opts);
    expect(files.rows).toHaveLength(5);
    expect(
      files.rows.every(
        (r) => typeof r.url === "string" && typeof r.hits === "number" && typeof r.transfer === "number",
      ),
    ).toBe(true);

    const nodes = await getNodeHits({ ...range, sortBy: ["hits DESC"] }, opts);
    expect(nodes.rows.every((r) => typeof r.node === "string" && typeof r.hits === "number")).toBe(true);

    const live = { companyId: "acme", zoneId: ids.stream };
    const conns = await getConnectionStats({ ...live, dateFrom: FROM, dateTo: TO }, opts);
    expect(conns.rows.every((r) => typeof r.connections === "number" && typeof r.peakConcurrent === "number")).toBe(
      true,
    );
    const hourly = await getHourlyConnectionStats({ ...live, date: FROM }, opts);
    expect(hourly.rows).toHaveLength(24);

    // Reports whose signature says int: rows (default) or one bare number (legacy), a `total` beside no rows.
    const cache = await getCacheHitStats(range, opts);
    const usage = await getUsagePerDay(range, opts);
    if (!legacy) {
      expect(cache.rows.every((r) => typeof r.cacheHitRatio === "number")).toBe(true);
      expect(usage.rows).toHaveLength(7);
    } else {
      expect(cache).toEqual({ rows: [], total: expect.any(Number) });
      expect(usage).toEqual({ rows: [], total: expect.any(Number) });
    }
  });

  test("bandwidth, users, purge", async () => {
    const bw = await getBandwidth({ from: FROM, to: TO }, opts);
    expect(bw.hasData).toBe(true);
    expect(bw.remaining).toBeGreaterThan(0);
    if (!legacy) {
      expect(bw.prepaid! - bw.used!).toBe(bw.remaining);
      // Numbers under one set of names, whatever the server's spelling (`rollup`: `prepaid_bandwidth`, as text).
      expect(Object.keys(bw.rows[0]).sort()).toEqual(["from", "prepaid", "remaining", "to", "used"]);
      expect([bw.from, bw.to]).toEqual([FROM, TO]);
    } else expect(bw.raw).toBe(bw.remaining); // one number, as public clients read it
    const users = await getUsers({}, opts);
    expect(users.users[0]).toMatchObject({ userId: emu.apiUserId, email: expect.any(String) });
    await expect(purgeZone({ zone: "www.acme" }, opts)).resolves.toMatchObject({});
    expect(emu.purges.at(-1)).toMatchObject({ method: "cache.purgeAllCache", result: true });
  });

  test("a report of the whole account keeps its rows; a row of no single zone has zoneId null (issue 25)", async () => {
    const whole = { companyId: "acme", dateFrom: FROM, dateTo: TO };
    const stats = await getTotalTransferStats(whole, opts);
    const files = await getPopularFiles({ ...whole, maxReturn: 5 }, opts);
    const nodes = await getNodeHits(whole, opts);
    for (const rows of [stats.rows, files.rows, nodes.rows]) expect(rows.length).toBeGreaterThan(0);
    if (profile === "rollup") {
      // Summed over the zones (zone_id 0), or sent without zone_id (popular files): kept, as of no single zone.
      for (const rows of [stats.rows, files.rows, nodes.rows]) expect(rows.every((r) => r.zoneId === null)).toBe(true);
      expect(stats.rows).toHaveLength(7);
      expect(stats.rows.every((r) => typeof r.transfer === "number" && r.transfer > 0)).toBe(true);
    } else {
      for (const rows of [stats.rows, files.rows, nodes.rows])
        expect(rows.every((r) => [ids.www, ids.files, ids.stream].includes(r.zoneId!))).toBe(true);
    }
  });

  test("a create error arrives as the same typed error (the legacy profile sends it as a fault)", async () => {
    const err = await client.pullzone
      .create({ values: { name: "www", origin: "https://origin.example.com" } })
      .catch((e) => e);
    expect(err).toMatchObject({ type: "name_in_use", code: 2002, zoneName: "www" });
  });
});

describe("auth failures are never an answer", () => {
  let emu: Emu;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
  });
  afterAll(() => emu.close());

  test("getUnmanagedZones, getZone and reports with a wrong key fail, they never answer empty", async () => {
    const wrong = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: "not-the-key-000", retries: 0 });
    try {
      await expect(getUnmanagedZones({ managed: [] }, { connection: wrong })).rejects.toBeInstanceOf(CdnAuthError);
      await expect(getUnmanagedZones({ managed: [], kinds: ["live"] }, { connection: wrong })).rejects.toBeInstanceOf(
        CdnAuthError,
      );
      await expect(getZone({ kind: "pull", name: "www" }, { connection: wrong })).rejects.toBeInstanceOf(CdnAuthError);
      await expect(
        getNodeHits({ companyId: "acme", dateFrom: FROM, dateTo: TO }, { connection: wrong }),
      ).rejects.toBeInstanceOf(CdnAuthError);
      await expect(getBandwidth({}, { connection: wrong })).rejects.toBeInstanceOf(CdnAuthError);
    } finally {
      wrong.close();
    }
  });
});

describe("against a crafted server", () => {
  const server = useScriptedServer();
  let client: CdnClient;
  let body = "";
  beforeAll(() => {
    server.get().answer((res) => xmlAnswer(body)(res));
    client = server.get().client({ apiKey: "crafted-key-000" });
  });
  afterAll(() => client.close());
  const { answer, fault } = rpc;

  test("a 403 that does not say live zones are not granted is an error, not a skipped kind", async () => {
    body = fault(403, "access denied: this API key is disabled");
    await expect(getUnmanagedZones({ managed: [], kinds: ["live"] }, { connection: client })).rejects.toBeInstanceOf(
      CdnAuthError,
    );
    body = fault(403, "access denied: live zone methods are not enabled for this API key");
    expect(await getUnmanagedZones({ managed: [], kinds: ["live"] }, { connection: client })).toMatchObject({
      zones: [],
      skippedKinds: ["live"],
    });
  });

  test("no rows are no data, not 0; a row without the figure is an error naming the columns sent", async () => {
    body = answer("<array><data></data></array>");
    const none = await getTotalTransfer({ zoneId: 5, type: "today" }, { connection: client });
    expect(none).toEqual({ zoneId: 5, rows: [], hasData: false, transfer: undefined });
    const bw = await getBandwidth({}, { connection: client });
    expect(bw).toMatchObject({ hasData: false, rows: [] });
    expect(bw.remaining).toBeUndefined();

    body = answer(
      "<array><data><value><struct><member><name>zone_id</name><value><int>5</int></value></member><member><name>bytes_out</name><value><int>9</int></value></member></struct></value></data></array>",
    );
    const err = await getTotalTransfer({ zoneId: 5, type: "today" }, { connection: client }).catch((e) => e);
    expect(err).toBeInstanceOf(CdnProtocolError);
    expect((err as CdnError).message).toMatch(/no 'transfer' figure.*columns sent: zone_id, bytes_out/);
  });
});
