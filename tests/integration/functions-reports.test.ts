/**
 * Report, bandwidth and user functions against the emulator over HTTP: the parameters that reach
 * the wire (checked in the emulator's call records), camelCase typed rows, companyId defaults,
 * paging, bad inputs refused before any call, and the Output forms (preview and not).
 */
import * as pulumi from "@pulumi/pulumi";
import { CdnConfigError, CdnValidationError } from "../../provider/api";
import { startEmulator } from "../../provider/emulator";
import {
  closeFunctionClients,
  getBandwidth,
  getBandwidthOutput,
  getCacheHitStats,
  getCacheHitStatsOutput,
  getConnectionStats,
  getHourlyConnectionStats,
  getNodeHits,
  getPopularFiles,
  getPopularFilesOutput,
  getTotalHits,
  getTotalHitsOutput,
  getTotalTransfer,
  getTotalTransferOutput,
  getTotalTransferStats,
  getUsagePerDay,
  getUsagePerDayOutput,
  getUsers,
  getUsersOutput,
} from "../../provider/functions";
import { expectRefusedLocally } from "../support/refused";
import { setPreview, settled, useStackConfig as useStackConfigFor } from "../support/mocks";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;

/** The stack's config as a program sees it (apiKey secret), pointing at this file's emulator. */
const useStackConfig = (extra: Record<string, string> = { "cdn:companyAlias": "acme" }) =>
  useStackConfigFor(emu, extra);
let pull: number;
let push: number;
let live: number;
const FROM = "2026-10-01";
const TO = "2026-10-30";

/** Runs `fn` and returns the calls it made: method and parameters after the auth ones. */
async function callsOf<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; calls: { method: string; params: unknown[] }[] }> {
  const before = emu.calls.length;
  const result = await fn();
  return { result, calls: emu.calls.slice(before).map((c) => ({ method: c.method, params: [...(c.params ?? [])] })) };
}

const refusedLocally = (fn: () => Promise<unknown>, parameter: string, text?: string) =>
  expectRefusedLocally(emu, fn, parameter, text);

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  pull = (await emu.seedZone("pullzone", { name: "www", origin: "https://origin.example.com" })).id;
  push = (await emu.seedZone("pushzone", { name: "static", password: "Pa55word-1" })).id;
  live = (await emu.seedZone("livezone", { name: "stream", password: "Pa55word-1" })).id;
  delete process.env.CDN_COMPANY_ID;
  delete process.env.CDN_COMPANY_ALIAS;
});
afterAll(async () => {
  closeFunctionClients();
  await emu.close();
});
beforeEach(async () => {
  await setPreview(false);
  useStackConfig();
});

describe("what reaches the wire", () => {
  test("getTotalTransfer: named type 'range', a Date, a time zone", async () => {
    const { result, calls } = await callsOf(() =>
      getTotalTransfer({
        zoneId: pull,
        type: "range",
        from: new Date(Date.UTC(2026, 9, 1)),
        to: "2026-10-03",
        timezone: "Europe/Paris",
      }),
    );
    expect(calls).toEqual([
      { method: "report.getTotalTransfer", params: [pull, 3, "2026-10-01", "2026-10-03", "Europe/Paris"] },
    ]);
    expect(result.rows).toEqual([
      {
        zoneId: pull,
        from: "2026-10-01 00:00:00",
        to: "2026-10-03 23:59:59",
        timezone: "Europe/Paris",
        transfer: expect.any(Number),
      },
    ]);
    expect(result.transfer).toBe(result.rows[0].transfer);
    expect(result.transfer).toBeGreaterThan(0);
  });

  test("getTotalHits: 'today' and 'currentHour' map to 1 and 2; dates alone mean 'range'", async () => {
    const today = await callsOf(() => getTotalHits({ zoneId: pull, type: "today" }));
    const hour = await callsOf(() => getTotalHits({ zoneId: pull, type: "currentHour" }));
    const range = await callsOf(() => getTotalHits({ zoneId: pull, from: FROM, to: FROM }));
    expect([...today.calls, ...hour.calls, ...range.calls].map((c) => c.params)).toEqual([
      [pull, 1],
      [pull, 2],
      [pull, 3, FROM, FROM],
    ]);
    expect(typeof range.result.hits).toBe("number");
    expect(today.result.hits).toBeGreaterThanOrEqual(hour.result.hits!);
  });

  test("getTotalTransferStats: company alias from config, camelCase sortBy, viewBy", async () => {
    const { result, calls } = await callsOf(() =>
      getTotalTransferStats({
        dateFrom: FROM,
        dateTo: TO,
        zoneId: pull,
        viewBy: "daily",
        sortBy: ["transfer DESC"],
        timezone: "GMT",
      }),
    );
    expect(calls).toEqual([
      {
        method: "report.getTotalTransferStats",
        params: ["acme", FROM, TO, pull, ["transfer DESC"], "daily", null, null, "GMT"],
      },
    ]);
    expect(result.rows).toHaveLength(30);
    const t = result.rows.map((r) => r.transfer);
    expect(t).toEqual([...t].sort((a, b) => b! - a!));
    expect(Object.keys(result.rows[0]).sort()).toEqual(["date", "hits", "transfer", "zoneId"]);
  });

  test("getCacheHitStats: explicit companyId; camelCase column names become wire names", async () => {
    const { result, calls } = await callsOf(() =>
      getCacheHitStats({
        companyId: 1,
        dateFrom: FROM,
        dateTo: "2026-10-05",
        sortBy: ["cacheHitRatio DESC", "zoneId ASC"],
      }),
    );
    expect(calls[0].params).toEqual([1, FROM, "2026-10-05", null, ["cache_hit_ratio DESC", "zone_id ASC"]]);
    const row = result.rows[0];
    expect(Object.keys(row).sort()).toEqual(["cacheHitRatio", "cacheHits", "cacheMisses", "date", "hits", "zoneId"]);
    expect(row.cacheHitRatio).toBeGreaterThan(0);
    expect(row.cacheHitRatio).toBeLessThanOrEqual(1);
    const ratios = result.rows.map((r) => r.cacheHitRatio);
    expect(ratios).toEqual([...ratios].sort((a, b) => b! - a!));
  });

  test("getPopularFiles: maxReturn and offset", async () => {
    const first = await callsOf(() => getPopularFiles({ dateFrom: FROM, dateTo: TO, zoneId: push, maxReturn: 5 }));
    const next = await callsOf(() =>
      getPopularFiles({ dateFrom: FROM, dateTo: TO, zoneId: push, maxReturn: 5, offset: 5 }),
    );
    expect(first.calls[0].params).toEqual(["acme", FROM, TO, push, null, 5]);
    expect(next.calls[0].params).toEqual(["acme", FROM, TO, push, null, 5, 5]);
    expect(first.result.rows).toHaveLength(5);
    expect(first.result.rows[0]).toEqual({
      zoneId: push,
      url: expect.stringMatching(/^https?:\/\/static\./),
      hits: expect.any(Number),
      transfer: expect.any(Number),
    });
    expect(first.result.rows[4].hits).toBeGreaterThanOrEqual(next.result.rows[0].hits!);
  });

  test("getUsagePerDay, getNodeHits, getConnectionStats, getHourlyConnectionStats", async () => {
    const usage = await callsOf(() => getUsagePerDay({ dateFrom: FROM, dateTo: "2026-10-07", zoneId: pull }));
    expect(usage.calls[0].params).toEqual(["acme", FROM, "2026-10-07", pull]);
    expect(usage.result.rows.map((r) => r.date)).toEqual(
      ["01", "02", "03", "04", "05", "06", "07"].map((d) => `2026-10-${d}`),
    );

    const nodes = await callsOf(() => getNodeHits({ dateFrom: FROM, dateTo: TO, zoneId: pull, sortBy: ["hits DESC"] }));
    expect(nodes.calls[0].params).toEqual(["acme", FROM, TO, pull, ["hits DESC"]]);
    expect(nodes.result.rows[0]).toEqual({
      node: expect.any(String),
      zoneId: pull,
      hits: expect.any(Number),
      transfer: expect.any(Number),
    });

    const conns = await callsOf(() =>
      getConnectionStats({ dateFrom: FROM, dateTo: "2026-10-02", zoneId: live, timezone: "America/New_York" }),
    );
    expect(conns.calls[0].params).toEqual(["acme", FROM, "2026-10-02", live, null, null, null, "America/New_York"]);
    expect(conns.result.rows).toHaveLength(2);
    expect(conns.result.rows[0]).toEqual({
      date: FROM,
      zoneId: live,
      connections: expect.any(Number),
      peakConcurrent: expect.any(Number),
    });

    const hourly = await callsOf(() =>
      getHourlyConnectionStats({ date: new Date(Date.UTC(2026, 9, 2, 15)), zoneId: live }),
    );
    expect(hourly.calls[0].params).toEqual(["acme", "2026-10-02", live]);
    expect(hourly.result.rows).toHaveLength(24);
    expect(Object.keys(hourly.result.rows[0]).sort()).toEqual(["connections", "hour", "peakConcurrent", "zoneId"]);
  });

  test("getBandwidth and getUsers", async () => {
    const bw = await callsOf(() => getBandwidth({ from: FROM, to: TO }));
    expect(bw.calls[0]).toEqual({ method: "account.getBandwidth", params: [FROM, TO] });
    expect(bw.result.rows).toEqual([
      { from: FROM, to: TO, prepaid: 1e13, used: expect.any(Number), remaining: expect.any(Number) },
    ]);
    expect(bw.result.remaining).toBe(bw.result.prepaid! - bw.result.used!);
    const none = await callsOf(() => getBandwidth());
    expect(none.calls[0].params).toEqual([]);

    const users = await callsOf(() => getUsers());
    expect(users.calls).toEqual([{ method: "user.listUsers", params: [] }]);
    expect(users.result.users[0]).toEqual({
      userId: emu.apiUserId,
      username: "api",
      email: expect.any(String),
      fullname: "API User",
      timezone: "America/Los_Angeles",
      phone: "",
    });
  });

  test("results are JSON-safe and their numbers are numbers", async () => {
    const r = await getCacheHitStats({ dateFrom: FROM, dateTo: FROM, zoneId: pull });
    expect(JSON.parse(JSON.stringify(r))).toEqual(r);
    for (const v of Object.values(r.rows[0])) expect(["string", "number"]).toContain(typeof v);
    expect(typeof r.rows[0].hits).toBe("number");
  });
});

describe("companyId defaults", () => {
  test("cdn:companyId wins over cdn:companyAlias and goes as an int", async () => {
    useStackConfig({ "cdn:companyId": "1", "cdn:companyAlias": "acme" });
    const { calls } = await callsOf(() => getNodeHits({ dateFrom: FROM, dateTo: FROM }));
    expect(calls[0].params[0]).toBe(1);
  });

  test("CDN_COMPANY_ID when config has none", async () => {
    useStackConfig({});
    process.env.CDN_COMPANY_ID = "1";
    try {
      const { calls } = await callsOf(() => getNodeHits({ dateFrom: FROM, dateTo: FROM }));
      expect(calls[0].params[0]).toBe(1);
    } finally {
      delete process.env.CDN_COMPANY_ID;
    }
  });

  test("none anywhere: a config error naming where to set it, nothing sent", async () => {
    useStackConfig({});
    const before = emu.calls.length;
    const err = await getNodeHits({ dateFrom: FROM, dateTo: FROM }).catch((e) => e);
    expect(err).toBeInstanceOf(CdnConfigError);
    expect(err.message).toContain("cdn:companyId");
    expect(err.message).toContain("CDN_COMPANY_ALIAS");
    expect(emu.calls.length).toBe(before);
  });

  test("credentials from CDN_* when the stack has no config; no secret in errors", async () => {
    pulumi.runtime.setAllConfig({}, []);
    const saved = { ...process.env };
    Object.assign(process.env, {
      CDN_BASE_URL: emu.url,
      CDN_API_USER_ID: String(emu.apiUserId),
      CDN_API_KEY: emu.apiKey,
      CDN_COMPANY_ALIAS: "acme",
    });
    try {
      expect((await getUsers()).users.length).toBeGreaterThan(0);
      const err = await getNodeHits({ companyId: "someone-else", dateFrom: FROM, dateTo: FROM }).catch((e) => e);
      expect(err.message).toContain("someone-else");
      expect(err.message).not.toContain(emu.apiKey);
      delete process.env.CDN_API_KEY;
      const missing = await getUsers().catch((e) => e);
      expect(missing).toBeInstanceOf(CdnConfigError);
      expect(missing.message).toContain("CDN_API_KEY");
    } finally {
      for (const k of ["CDN_BASE_URL", "CDN_API_USER_ID", "CDN_API_KEY", "CDN_COMPANY_ALIAS"]) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });
});

describe("paging", () => {
  test("allPages fetches every page with maxReturn/offset and equals one big call", async () => {
    const all = await getUsagePerDay({ dateFrom: FROM, dateTo: TO, zoneId: pull });
    const { result, calls } = await callsOf(() =>
      getUsagePerDay({ dateFrom: FROM, dateTo: TO, zoneId: pull, allPages: true, pageSize: 7 }),
    );
    expect(calls.map((c) => c.params.slice(4))).toEqual([0, 7, 14, 21, 28].map((o) => [null, 7, o]));
    expect(result.rows).toEqual(all.rows);
    expect(result.rows).toHaveLength(30);
  });

  test("allPages stops at a short page; an exact multiple costs one empty page", async () => {
    const { result, calls } = await callsOf(() =>
      getTotalTransferStats({ dateFrom: FROM, dateTo: "2026-10-10", zoneId: pull, allPages: true, pageSize: 5 }),
    );
    expect(result.rows.map((r) => r.date)).toEqual(
      Array.from({ length: 10 }, (_, i) => `2026-10-${String(i + 1).padStart(2, "0")}`),
    );
    // getTotalTransferStats types offset as a string on the wire (§4.9 of the API contract, docs/api-contract.md).
    expect(calls.map((c) => [c.params[6], c.params[7]])).toEqual([
      [5, "0"],
      [5, "5"],
      [5, "10"],
    ]);
  });

  test("allPages with a large report and the default page size", async () => {
    const { result, calls } = await callsOf(() =>
      getPopularFiles({ dateFrom: FROM, dateTo: TO, zoneId: pull, allPages: true }),
    );
    const sizes = calls.map((c) => c.params[5]);
    expect(new Set(sizes)).toEqual(new Set([1000]));
    expect(result.rows.length).toBeGreaterThan(1000);
    expect(calls).toHaveLength(Math.floor(result.rows.length / 1000) + 1);
    expect(new Set(result.rows.map((r) => r.url)).size).toBe(result.rows.length);
  });

  test("paging arguments are checked", async () => {
    await refusedLocally(
      () => getPopularFiles({ dateFrom: FROM, dateTo: TO, allPages: true, maxReturn: 10 }),
      "maxReturn",
      "allPages",
    );
    await refusedLocally(() => getPopularFiles({ dateFrom: FROM, dateTo: TO, pageSize: 10 }), "pageSize", "allPages");
    await refusedLocally(
      () => getPopularFiles({ dateFrom: FROM, dateTo: TO, allPages: true, pageSize: 0 }),
      "pageSize",
    );
    await refusedLocally(() => getPopularFiles({ dateFrom: FROM, dateTo: TO, allPages: "yes" as never }), "allPages");
  });
});

describe("bad inputs are refused before anything reaches the API", () => {
  test("dates in the wrong format or order", async () => {
    await refusedLocally(
      () => getUsagePerDay({ dateFrom: "2026/10/01", dateTo: TO, zoneId: pull }),
      "dateFrom",
      "Y-m-d",
    );
    await refusedLocally(() => getUsagePerDay({ dateFrom: "2026-02-30", dateTo: TO, zoneId: pull }), "dateFrom");
    await refusedLocally(
      () => getUsagePerDay({ dateFrom: FROM, dateTo: new Date("nope"), zoneId: pull }),
      "dateTo",
      "invalid Date",
    );
    await refusedLocally(
      () => getUsagePerDay({ dateFrom: TO, dateTo: FROM, zoneId: pull }),
      "dateFrom",
      `dateFrom ${TO} is after dateTo ${FROM}`,
    );
    await refusedLocally(
      () => getTotalTransfer({ zoneId: pull, from: "2026-10-05", to: "2026-10-04" }),
      "from",
      "from 2026-10-05 is after to 2026-10-04",
    );
    await refusedLocally(() => getBandwidth({ from: TO, to: FROM }), "from", "is after to");
    await refusedLocally(() => getHourlyConnectionStats({ date: "yesterday" }), "date");
    await refusedLocally(() => getCacheHitStats({ dateTo: TO } as never), "dateFrom", "required");
  });

  test("unknown type, a range without dates", async () => {
    await refusedLocally(
      () => getTotalHits({ zoneId: pull, type: "yesterday" as never }),
      "type",
      "today, currentHour, range",
    );
    await refusedLocally(() => getTotalHits({ zoneId: pull, type: 3 as never }), "type");
    await refusedLocally(() => getTotalHits({ zoneId: pull, type: "range", from: FROM }), "to", "range");
  });

  test("maxReturn negative or zero, offset negative, bad zoneId, malformed sortBy or unknown argument", async () => {
    await refusedLocally(() => getNodeHits({ dateFrom: FROM, dateTo: TO, maxReturn: -1 }), "maxReturn");
    await refusedLocally(() => getNodeHits({ dateFrom: FROM, dateTo: TO, maxReturn: 0 }), "maxReturn");
    await refusedLocally(() => getNodeHits({ dateFrom: FROM, dateTo: TO, offset: -5 }), "offset");
    await refusedLocally(() => getNodeHits({ dateFrom: FROM, dateTo: TO, maxReturn: 1.5 }), "maxReturn");
    await refusedLocally(() => getUsagePerDay({ dateFrom: FROM, dateTo: TO } as never), "zoneId", "required");
    await refusedLocally(() => getTotalTransfer({ zoneId: -3 }), "zoneId");
    await refusedLocally(() => getNodeHits({ dateFrom: FROM, dateTo: TO, sortBy: ["hits SIDEWAYS"] }), "sortby");
    await refusedLocally(
      () => getNodeHits({ dateFrom: FROM, dateTo: TO, timezone: "GMT" } as never),
      "timezone",
      "not an argument of getNodeHits",
    );
    await refusedLocally(() => getTotalTransfer({ zoneId: pull, timezone: "Mars/Olympus" }), "timezone");
    await refusedLocally(
      () => getTotalTransferStats({ dateFrom: FROM, dateTo: TO, viewBy: "weekly" as never }),
      "viewby",
    );
    await refusedLocally(() => getNodeHits({ companyId: -1, dateFrom: FROM, dateTo: TO }), "companyId");
  });
});

describe("Output forms", () => {
  test("Inputs resolve; a Date, also one computed by an apply, is sent as Y-m-d", async () => {
    const { result, calls } = await callsOf(() =>
      settled(
        getUsagePerDayOutput({
          zoneId: pulumi.output(pull),
          dateFrom: pulumi.output(pull).apply(() => new Date(Date.UTC(2026, 9, 1))),
          dateTo: new Date(Date.UTC(2026, 9, 3)),
        }),
      ),
    );
    expect(calls[0].params).toEqual(["acme", FROM, "2026-10-03", pull]);
    expect(result).toMatchObject({ known: true, secret: false });
    expect(result.value.rows).toHaveLength(3);
  });

  test("a secret argument keeps the result secret; a plain one does not", async () => {
    const secret = await settled(getTotalTransferOutput({ zoneId: pulumi.secret(pull), type: "today" }));
    expect(secret.secret).toBe(true);
    expect(secret.value.transfer).toBeGreaterThan(0);
    const plain = await settled(getTotalHitsOutput({ zoneId: pull, type: pulumi.output("today" as const) }));
    expect(plain.secret).toBe(false);
  });

  test("reads run during a preview too (like invokes)", async () => {
    await setPreview(true);
    const { result, calls } = await callsOf(() =>
      settled(getCacheHitStatsOutput({ dateFrom: FROM, dateTo: FROM, zoneId: pull })),
    );
    expect(calls.map((c) => c.method)).toEqual(["report.getCacheHitStats"]);
    expect(result.value.rows).toHaveLength(1);
    expect((await settled(getUsersOutput())).value.users.length).toBe(3);
    expect((await settled(getBandwidthOutput({ from: FROM, to: TO }))).value.rows).toHaveLength(1);
  });

  test("paging and validation through the Output form", async () => {
    const r = await settled(
      getPopularFilesOutput({ dateFrom: FROM, dateTo: TO, zoneId: pull, allPages: true, pageSize: 2000 }),
    );
    expect(r.value.rows.length).toBeGreaterThan(2000);
    const before = emu.calls.length;
    const bad = await settled(getPopularFilesOutput({ dateFrom: pulumi.output(TO), dateTo: FROM })).catch((e) => e);
    expect(bad).toBeInstanceOf(CdnValidationError);
    expect(bad.message).toContain(`dateFrom ${TO} is after dateTo ${FROM}`);
    expect(emu.calls.length).toBe(before);
  });
});
