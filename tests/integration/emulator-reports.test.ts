/**
 * Reports over HTTP with a fixed emulator clock: columns, type/range rules, time zones and
 * DST, sorting and paging, determinism, doubles on the wire and a 10,000-row report.
 */
import { FAULT } from "../../provider/api/wire";
import { REPORT_COLUMNS } from "../../provider/api/reportShapes";
import { startEmulator, type Emulator } from "../../provider/emulator";
import { signedCall } from "../support/emulator";

/** 2024-03-15 12:34:56 UTC (05:34:56 in Los Angeles, after the March DST change). */
const NOW = Date.UTC(2024, 2, 15, 12, 34, 56);

const callOf = (emu: Emulator, now: () => number) => signedCall(emu, { now });

describe("emulator reports", () => {
  let emu: Emulator;
  let call: ReturnType<typeof callOf>;
  let pull: number;
  let push: number;
  let live: number;

  beforeAll(async () => {
    emu = await startEmulator({ now: () => NOW });
    call = callOf(emu, () => NOW);
    [, { id: pull }] = await call("pullzone.create", { name: "rep-pull", origin: "http://o.example.com" });
    [, { id: push }] = await call("pushzone.create", { name: "rep-push", password: "pw" });
    [, { id: live }] = await call("livezone.create", { name: "rep-live", password: "pw" });
  });
  afterAll(() => emu.close());

  const invalid = { faultCode: FAULT.INVALID_PARAMS };

  describe("getTotalTransfer / getTotalHits", () => {
    it("type 3 gives one row for the range whose total equals the sum of getUsagePerDay", async () => {
      const [row] = await call("report.getTotalTransfer", pull, 3, "2024-01-01", "2024-01-10");
      expect(Object.keys(row)).toEqual([...REPORT_COLUMNS.getTotalTransfer]);
      expect(row).toMatchObject({
        zone_id: pull,
        from: "2024-01-01 00:00:00",
        to: "2024-01-10 23:59:59",
        timezone: "GMT",
      });
      const days = await call("report.getUsagePerDay", 1, "2024-01-01", "2024-01-10", pull);
      expect(days).toHaveLength(10);
      expect(row.transfer).toBe(days.reduce((sum: number, d: { transfer: number }) => sum + d.transfer, 0));
    });

    it("type 1 is today up to the current hour, type 2 the current hour, in the asked time zone", async () => {
      const [today] = await call("report.getTotalHits", pull, 1);
      expect(today).toMatchObject({ from: "2024-03-15 00:00:00", to: "2024-03-15 12:59:59", timezone: "GMT" });
      const [hour] = await call("report.getTotalHits", pull, 2);
      expect(hour).toMatchObject({ from: "2024-03-15 12:00:00", to: "2024-03-15 12:59:59" });
      expect(hour.hits).toBeLessThan(today.hits);
      const [la] = await call("report.getTotalHits", pull, 1, null, null, "America/Los_Angeles");
      expect(la).toMatchObject({
        from: "2024-03-15 00:00:00",
        to: "2024-03-15 05:59:59",
        timezone: "America/Los_Angeles",
      });
      expect(Object.keys(la)).toEqual([...REPORT_COLUMNS.getTotalHits]);
    });

    it("type omitted means a range when from and to are given, today otherwise", async () => {
      const [range] = await call("report.getTotalHits", pull, null, "2024-01-01", "2024-01-02");
      expect(range.from).toBe("2024-01-01 00:00:00");
      const [today] = await call("report.getTotalHits", pull);
      expect(today.from).toBe("2024-03-15 00:00:00");
    });

    it("refuses type 3 without dates, an unknown type, to before from, a bad time zone, an unknown zone", async () => {
      await expect(call("report.getTotalTransfer", pull, 3)).rejects.toMatchObject({
        ...invalid,
        faultString: expect.stringContaining("type 3"),
      });
      await expect(call("report.getTotalTransfer", pull, 7)).rejects.toMatchObject(invalid);
      await expect(call("report.getTotalTransfer", pull, 3, "2024-02-01", "2024-01-01")).rejects.toMatchObject({
        ...invalid,
        faultString: expect.stringContaining("before"),
      });
      await expect(call("report.getTotalTransfer", pull, null, "2024-02-01")).rejects.toMatchObject(invalid);
      await expect(call("report.getTotalTransfer", pull, 1, null, null, "Nowhere/City")).rejects.toMatchObject({
        ...invalid,
        faultString: expect.stringContaining("timezone"),
      });
      await expect(call("report.getTotalTransfer", 999999, 1)).rejects.toMatchObject({
        faultCode: FAULT.NOT_FOUND,
        faultString: "not found: zone 999999",
      });
      await expect(call("report.getTotalTransfer", pull, 3, "2024-01-01", "2024-13-01")).rejects.toMatchObject(invalid);
    });
  });

  describe("getTotalTransferStats", () => {
    it("has daily rows per zone by default, with exactly the columns", async () => {
      const rows = await call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-03");
      expect(rows).toHaveLength(3 * 3);
      expect(Object.keys(rows[0])).toEqual([...REPORT_COLUMNS.getTotalTransferStats]);
      expect(rows.map((r: { date: string }) => r.date)).toEqual([
        "2024-01-01",
        "2024-01-01",
        "2024-01-01",
        "2024-01-02",
        "2024-01-02",
        "2024-01-02",
        "2024-01-03",
        "2024-01-03",
        "2024-01-03",
      ]);
    });

    it("hourly and monthly rows add up to the daily ones", async () => {
      const daily = await call("report.getTotalTransferStats", "acme", "2024-01-01", "2024-01-31", pull, [], "daily");
      const hourly = await call("report.getTotalTransferStats", "acme", "2024-01-01", "2024-01-01", pull, [], "hourly");
      const monthly = await call(
        "report.getTotalTransferStats",
        "acme",
        "2024-01-01",
        "2024-01-31",
        pull,
        [],
        "monthly",
      );
      expect(hourly).toHaveLength(24);
      expect(hourly[13].date).toBe("2024-01-01 13:00");
      expect(hourly.reduce((s: number, r: { hits: number }) => s + r.hits, 0)).toBe(daily[0].hits);
      expect(monthly).toEqual([
        {
          date: "2024-01",
          zone_id: pull,
          transfer: daily.reduce((s: number, r: { transfer: number }) => s + r.transfer, 0),
          hits: daily.reduce((s: number, r: { hits: number }) => s + r.hits, 0),
        },
      ]);
    });

    it("has 23 and 25 hourly rows on the DST days of a time zone", async () => {
      const spring = await call(
        "report.getTotalTransferStats",
        1,
        "2024-03-10",
        "2024-03-10",
        pull,
        [],
        "hourly",
        null,
        null,
        "America/Los_Angeles",
      );
      const fall = await call(
        "report.getTotalTransferStats",
        1,
        "2024-11-03",
        "2024-11-03",
        pull,
        [],
        "hourly",
        null,
        null,
        "America/Los_Angeles",
      );
      expect(spring).toHaveLength(23);
      expect(spring.map((r: { date: string }) => r.date)).not.toContain("2024-03-10 02:00");
      expect(fall).toHaveLength(25);
      expect(fall.filter((r: { date: string }) => r.date === "2024-11-03 01:00")).toHaveLength(2);
    });

    it("sorts by several columns, then pages with maxReturn and a numeric-string offset", async () => {
      const all = await call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-10", null, [
        "zone_id DESC",
        "hits ASC",
      ]);
      for (let i = 1; i < all.length; i++) {
        const [a, b] = [all[i - 1], all[i]];
        expect(a.zone_id > b.zone_id || (a.zone_id === b.zone_id && a.hits <= b.hits)).toBe(true);
      }
      const page = await call(
        "report.getTotalTransferStats",
        1,
        "2024-01-01",
        "2024-01-10",
        null,
        ["zone_id DESC", "hits ASC"],
        "daily",
        5,
        "3",
      );
      expect(page).toEqual(all.slice(3, 8));
      expect(
        await call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-10", null, [], "daily", 5, "1000"),
      ).toEqual([]);
    });

    it("refuses a bad viewby, a bad sortby, an int offset, a non-numeric offset, maxReturn 0, dateTo before dateFrom", async () => {
      await expect(
        call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-02", null, [], "weekly"),
      ).rejects.toMatchObject({ ...invalid, faultString: expect.stringContaining("viewby") });
      await expect(
        call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-02", null, ["bytes DESC"]),
      ).rejects.toMatchObject({ ...invalid, faultString: expect.stringContaining("'bytes' is not a column") });
      await expect(
        call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-02", null, ["hits"]),
      ).rejects.toMatchObject({ ...invalid, faultString: expect.stringContaining("ASC|DESC") });
      await expect(
        call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-02", null, "hits DESC"),
      ).rejects.toMatchObject(invalid);
      await expect(
        call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-02", null, [], "daily", 5, 3),
      ).rejects.toMatchObject({ ...invalid, faultString: expect.stringContaining("(offset) must be a string") });
      await expect(
        call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-02", null, [], "daily", 5, "x"),
      ).rejects.toMatchObject(invalid);
      await expect(
        call("report.getTotalTransferStats", 1, "2024-01-01", "2024-01-02", null, [], "daily", 0),
      ).rejects.toMatchObject(invalid);
      await expect(call("report.getTotalTransferStats", 1, "2024-01-05", "2024-01-02")).rejects.toMatchObject({
        ...invalid,
        faultString: expect.stringContaining("dateTo 2024-01-02 is before dateFrom 2024-01-05"),
      });
      await expect(call("report.getTotalTransferStats", 1, "2024-01-01", "2035-01-02")).rejects.toMatchObject({
        ...invalid,
        faultString: expect.stringContaining("3660 days"),
      });
    });

    it("accepts the company id or alias, and answers NOT_FOUND for another company", async () => {
      expect(await call("report.getTotalTransferStats", "1", "2024-01-01", "2024-01-01", pull)).toHaveLength(1);
      await expect(call("report.getTotalTransferStats", 2, "2024-01-01", "2024-01-01")).rejects.toMatchObject({
        faultCode: FAULT.NOT_FOUND,
      });
      await expect(call("report.getTotalTransferStats", "other", "2024-01-01", "2024-01-01")).rejects.toMatchObject({
        faultCode: FAULT.NOT_FOUND,
      });
      await expect(call("report.getTotalTransferStats", 1.5, "2024-01-01", "2024-01-01")).rejects.toMatchObject(
        invalid,
      );
    });

    // Its time is a benchmark figure (tests/bench/client.js), not a bound here.
    it("produces a 10,000-row report (hourly over 417 days)", async () => {
      const rows = await call("report.getTotalTransferStats", 1, "2024-01-01", "2025-02-20", pull, [], "hourly");
      expect(rows.length).toBeGreaterThanOrEqual(10_000);
    });
  });

  describe("the other reports", () => {
    it("getPopularFiles sorts by hits DESC by default and has 2,500 files per zone", async () => {
      const rows = await call("report.getPopularFiles", 1, "2024-01-01", "2024-01-31", pull);
      expect(rows).toHaveLength(2_500);
      expect(Object.keys(rows[0])).toEqual([...REPORT_COLUMNS.getPopularFiles]);
      for (let i = 1; i < rows.length; i++) expect(rows[i - 1].hits).toBeGreaterThanOrEqual(rows[i].hits);
      expect(rows[0].url).toMatch(/^http:\/\/rep-pull\.acme\.cdn\.example\.net\/assets\//);
      const asc = await call("report.getPopularFiles", 1, "2024-01-01", "2024-01-31", pull, ["url ASC"], 3, 1);
      expect(asc.map((r: { url: string }) => r.url)).toEqual(
        [...rows.map((r: { url: string }) => r.url)].sort().slice(1, 4),
      );
    });

    it("getPopularFiles over four zones gives 10,000 rows", async () => {
      const emu2 = await startEmulator({ now: () => NOW });
      try {
        const call2 = callOf(emu2, () => NOW);
        for (const name of ["a", "b", "c", "d"])
          await call2("pullzone.create", { name, origin: "http://o.example.com" });
        const rows = await call2("report.getPopularFiles", 1, "2024-01-01", "2024-12-31");
        expect(rows).toHaveLength(10_000);
      } finally {
        await emu2.close();
      }
    });

    it("getCacheHitStats rows satisfy hits = cache_hits + cache_misses and carry the ratio", async () => {
      const rows = await call(
        "report.getCacheHitStats",
        1,
        "2024-01-01",
        "2024-01-07",
        pull,
        ["cache_hit_ratio DESC"],
        null,
        null,
        "Europe/Berlin",
      );
      expect(rows).toHaveLength(7);
      expect(Object.keys(rows[0])).toEqual([...REPORT_COLUMNS.getCacheHitStats]);
      for (const r of rows) {
        expect(r.cache_hits + r.cache_misses).toBe(r.hits);
        expect(r.cache_hit_ratio).toBeCloseTo(r.cache_hits / r.hits, 3);
      }
    });

    it("getNodeHits splits a zone's range total over nodes", async () => {
      const rows = await call("report.getNodeHits", 1, "2024-01-01", "2024-01-05", push);
      const [total] = await call("report.getTotalHits", push, 3, "2024-01-01", "2024-01-05");
      expect(Object.keys(rows[0])).toEqual([...REPORT_COLUMNS.getNodeHits]);
      expect(rows.reduce((s: number, r: { hits: number }) => s + r.hits, 0)).toBe(total.hits);
      expect(new Set(rows.map((r: { node: string }) => r.node)).size).toBe(rows.length);
    });

    it("getUsagePerDay needs a zoneId", async () => {
      await expect(call("report.getUsagePerDay", 1, "2024-01-01", "2024-01-05", null)).rejects.toMatchObject({
        ...invalid,
        faultString: expect.stringContaining("zoneId"),
      });
      await expect(call("report.getUsagePerDay", 1, "2024-01-01", "2024-01-05")).rejects.toMatchObject({
        ...invalid,
        faultString: expect.stringContaining("zoneId"),
      });
      await expect(call("report.getUsagePerDay", 1, "2024-01-01", "2024-01-05", 424242)).rejects.toMatchObject({
        faultCode: FAULT.NOT_FOUND,
      });
    });

    it("getConnectionStats and getHourlyConnectionStats cover live zones only", async () => {
      const daily = await call("report.getConnectionStats", 1, "2024-01-01", "2024-01-03");
      expect(daily.map((r: { zone_id: number }) => r.zone_id)).toEqual([live, live, live]);
      expect(Object.keys(daily[0])).toEqual([...REPORT_COLUMNS.getConnectionStats]);
      const hourly = await call("report.getHourlyConnectionStats", 1, "2024-01-02", live);
      expect(hourly).toHaveLength(24);
      expect(Object.keys(hourly[0])).toEqual([...REPORT_COLUMNS.getHourlyConnectionStats]);
      expect(hourly.reduce((s: number, r: { connections: number }) => s + r.connections, 0)).toBe(daily[1].connections);
      expect(Math.max(...hourly.map((r: { peak_concurrent: number }) => r.peak_concurrent))).toBe(
        daily[1].peak_concurrent,
      );
      await expect(call("report.getConnectionStats", 1, "2024-01-01", "2024-01-03", pull)).rejects.toMatchObject({
        faultCode: FAULT.NOT_FOUND,
      });
    });
  });

  it("gives the same numbers for the same zone ids and dates in another emulator", async () => {
    const emu2 = await startEmulator({ now: () => NOW });
    try {
      const call2 = callOf(emu2, () => NOW);
      const [, { id }] = await call2("pullzone.create", { name: "rep-pull", origin: "http://o.example.com" });
      expect(id).toBe(pull);
      const a = await call("report.getUsagePerDay", 1, "2024-02-01", "2024-02-10", pull);
      const b = await call2("report.getUsagePerDay", 1, "2024-02-01", "2024-02-10", id);
      expect(b).toEqual(a);
      expect(new Set(a.map((r: { hits: number }) => r.hits)).size).toBeGreaterThan(1);
    } finally {
      await emu2.close();
    }
  });
});
