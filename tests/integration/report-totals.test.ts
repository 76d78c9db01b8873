/**
 * Issue 20.15: report methods whose contract says they answer a bare integer (getTotalHits,
 * getCacheHitStats, getUsagePerDay: "int" in §4.9). A bare number is a total beside the rows,
 * never a row that lacks its declared columns: the typed rows of the functions hold only real
 * rows, and the result carries the number as `total` (its type says so). Against the emulator's
 * legacy profile (which answers those three with one number) and a crafted server.
 */
import { CdnClient, CdnProtocolError } from "../../provider/api";
import { startEmulator } from "../../provider/emulator";
import {
  getCacheHitStats,
  getNodeHits,
  getTotalHits,
  getTotalTransfer,
  getUsagePerDay,
  type CacheHitStats,
  type UsagePerDay,
} from "../../provider/functions";
import { rpc, useScriptedClient } from "../support/scriptedServer";

const FROM = "2026-10-01";
const TO = "2026-10-07";

describe("a bare number is a total beside the rows (legacy profile)", () => {
  let emu: Awaited<ReturnType<typeof startEmulator>>;
  let client: CdnClient;
  let zoneId: number;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, compat: "legacy" });
    client = new CdnClient({ baseUrl: emu.url, apiUserId: emu.apiUserId, apiKey: emu.apiKey, retries: 0 });
    zoneId = (await emu.seedZone("pull", { name: "www", origin: "https://origin.example.com" })).id;
  });
  afterAll(async () => {
    client.close();
    await emu.close();
  });

  test("getCacheHitStats and getUsagePerDay: no rows, the number as `total`", async () => {
    const range = { companyId: "acme", dateFrom: FROM, dateTo: TO, zoneId };
    const cache = await getCacheHitStats(range, { connection: client });
    const usage = await getUsagePerDay(range, { connection: client });
    expect(cache.rows).toEqual([]);
    expect(usage.rows).toEqual([]);
    // The types say it: a total may come beside the rows of these two.
    const totals: (number | undefined)[] = [cache.total, usage.total];
    expect(totals.every((t) => typeof t === "number" && t > 0)).toBe(true);
  });

  test("getTotalHits: the figure is the total, and no row pretends to be one", async () => {
    const h = await getTotalHits({ zoneId, type: "range", from: FROM, to: TO }, { connection: client });
    expect(h.rows).toEqual([]);
    expect(h.hasData).toBe(true);
    expect(h.hits).toBeGreaterThan(0);
    expect(h.total).toBe(h.hits);
  });

  test("the client answers the number itself where the contract says int", async () => {
    const n = await client.report.getCacheHitStats({ companyId: "acme", dateFrom: FROM, dateTo: TO, zoneId });
    expect(typeof n).toBe("number");
  });
});

describe("a crafted server", () => {
  const scripted = useScriptedClient();
  const serve = scripted.serve;

  test("rows stay rows: no `total` on a result whose answer had rows", async () => {
    serve(rpc.answer(rpc.array(rpc.struct({ date: "<string>2026-10-01</string>", hits: "<int>3</int>" }))));
    const usage = await getUsagePerDay(
      { companyId: "acme", dateFrom: FROM, dateTo: TO, zoneId: 5 },
      { connection: scripted.client() },
    );
    expect(usage).toEqual({ rows: [{ date: "2026-10-01", hits: 3 }] });
  });

  test("a bare number from getTotalTransfer is its total too", async () => {
    serve(rpc.answer("<int>1234</int>"));
    const t = await getTotalTransfer({ zoneId: 5, type: "today" }, { connection: scripted.client() });
    expect(t).toEqual({ zoneId: 5, rows: [], total: 1234, transfer: 1234, hasData: true });
  });

  test("a bare number where the contract says array (getNodeHits) is a protocol error, not a row", async () => {
    serve(rpc.answer("<int>77</int>"));
    const err = await getNodeHits(
      { companyId: "acme", dateFrom: FROM, dateTo: TO },
      { connection: scripted.client() },
    ).catch((e) => e);
    expect(err).toBeInstanceOf(CdnProtocolError);
    expect(err.message).toMatch(/report\.getNodeHits.*array of rows/);
  });

  test("the row types claim no total: a row is a row", () => {
    const row: CacheHitStats = { date: "2026-10-01", cacheHits: 1 };
    const day: UsagePerDay = { date: "2026-10-01" };
    // @ts-expect-error a figure is a number or absent, never text
    const bad: UsagePerDay = { hits: "3" };
    expect([row, day, bad]).toHaveLength(3);
    expect("total" in row).toBe(false);
  });
});
