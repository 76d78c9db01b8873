/**
 * Every function against its Output form, under `pulumi.runtime.setMocks` with preview false and
 * true: the Output form (its arguments wrapped as Outputs) sends the same parameters and returns the
 * same result as the plain form; reads run in a preview too, purges never do.
 */
import * as pulumi from "@pulumi/pulumi";
import { startEmulator } from "../../provider/emulator";
import * as fns from "../../provider/functions";
import { echoMocks as mocks, settled } from "../support/mocks";
import { liveFunctionsUnderMocks } from "../support/liveFunctions";

type Emu = Awaited<ReturnType<typeof startEmulator>>;
type AnyFn = (args: never, opts?: never) => Promise<unknown>;
type AnyOutputFn = (args: never, opts?: never) => pulumi.Output<unknown>;

let emu: Emu;
const ids: Record<string, number> = {};
const R = { dateFrom: "2026-10-01", dateTo: "2026-10-04" };

/**
 * Each argument wrapped in an Output, as a program passing other resources' outputs would. A Date
 * comes from an apply: `pulumi.output(date)` itself copies a Date into `{}` (an SDK behaviour).
 */
function asInputs(args: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!args) return args;
  return Object.fromEntries(
    Object.entries(args).map(([k, v]) => [k, v instanceof Date ? pulumi.output(0).apply(() => v) : pulumi.output(v)]),
  );
}

/** Drops values that differ from one call to the next (purge times). */
const stable = (v: unknown) => JSON.parse(JSON.stringify(v, (k, x) => (k === "purgedAt" ? "<time>" : x)));

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  ids.pull = (await emu.seedZone("pullzone", { name: "www", origin: "https://origin.example.com" })).id;
  ids.push = (await emu.seedZone("pushzone", { name: "static", password: "Pa55word-1" })).id;
  ids.vod = (await emu.seedZone("vodzone", { name: "videos", password: "Pa55word-1" })).id;
  ids.live = (await emu.seedZone("livezone", { name: "stream", password: "Pa55word-1" })).id;
  pulumi.runtime.setAllConfig(
    {
      "cdn:baseUrl": emu.url,
      "cdn:apiUserId": String(emu.apiUserId),
      "cdn:apiKey": emu.apiKey,
      "cdn:companyAlias": "acme",
    },
    ["cdn:apiKey"],
  );
});
afterAll(async () => {
  fns.closeFunctionClients();
  await emu.close();
});

const host = "www.acme.cdn.example.net";
/** [name, plain, Output form, arguments, is a purge] */
const CASES: [string, AnyFn, AnyOutputFn, () => Record<string, unknown> | undefined, boolean][] = [
  ["purgeUrl", fns.purgeUrl, fns.purgeUrlOutput, () => ({ url: `https://${host}/a.js` }), true],
  [
    "purgeUrls",
    fns.purgeUrls,
    fns.purgeUrlsOutput,
    () => ({ urls: [`https://${host}/a.js`, `https://${host}/b.js`] }),
    true,
  ],
  ["purgeZone", fns.purgeZone, fns.purgeZoneOutput, () => ({ zone: "www" }), true],
  ["getPullZones", fns.getPullZones, fns.getPullZonesOutput, () => undefined, false],
  ["getPushZones", fns.getPushZones, fns.getPushZonesOutput, () => undefined, false],
  ["getVodZones", fns.getVodZones, fns.getVodZonesOutput, () => undefined, false],
  ["getLiveZones", fns.getLiveZones, fns.getLiveZonesOutput, () => undefined, false],
  ["getZone", fns.getZone, fns.getZoneOutput, () => ({ kind: "push", name: "static" }), false],
  [
    "getUnmanagedZones",
    fns.getUnmanagedZones,
    fns.getUnmanagedZonesOutput,
    () => ({ managed: [ids.pull, ids.push] }),
    false,
  ],
  [
    "getTotalTransfer",
    fns.getTotalTransfer,
    fns.getTotalTransferOutput,
    () => ({ zoneId: ids.pull, from: R.dateFrom, to: R.dateTo }),
    false,
  ],
  [
    "getTotalHits",
    fns.getTotalHits,
    fns.getTotalHitsOutput,
    () => ({ zoneId: ids.push, type: "range", from: R.dateFrom, to: R.dateTo, timezone: "Asia/Tokyo" }),
    false,
  ],
  [
    "getTotalTransferStats",
    fns.getTotalTransferStats,
    fns.getTotalTransferStatsOutput,
    () => ({ ...R, viewBy: "hourly", zoneId: ids.pull, maxReturn: 30, offset: 3 }),
    false,
  ],
  [
    "getCacheHitStats",
    fns.getCacheHitStats,
    fns.getCacheHitStatsOutput,
    () => ({ ...R, sortBy: ["cacheHits DESC"] }),
    false,
  ],
  [
    "getPopularFiles",
    fns.getPopularFiles,
    fns.getPopularFilesOutput,
    () => ({ ...R, zoneId: ids.push, maxReturn: 10 }),
    false,
  ],
  [
    "getUsagePerDay",
    fns.getUsagePerDay,
    fns.getUsagePerDayOutput,
    () => ({ ...R, zoneId: ids.vod, allPages: true, pageSize: 3 }),
    false,
  ],
  ["getNodeHits", fns.getNodeHits, fns.getNodeHitsOutput, () => ({ ...R, companyId: 1 }), false],
  [
    "getConnectionStats",
    fns.getConnectionStats,
    fns.getConnectionStatsOutput,
    () => ({ ...R, zoneId: ids.live }),
    false,
  ],
  [
    "getHourlyConnectionStats",
    fns.getHourlyConnectionStats,
    fns.getHourlyConnectionStatsOutput,
    () => ({ date: new Date(Date.UTC(2026, 9, 2)), sortBy: ["connections DESC"] }),
    false,
  ],
  ["getBandwidth", fns.getBandwidth, fns.getBandwidthOutput, () => ({ from: R.dateFrom, to: R.dateTo }), false],
  ["getUsers", fns.getUsers, fns.getUsersOutput, () => undefined, false],
];

function callsDuring<T>(fn: () => Promise<T>): Promise<{ result: T; calls: unknown[] }> {
  const before = emu.calls.length;
  return fn().then((result) => ({ result, calls: emu.calls.slice(before).map((c) => [c.method, c.params]) }));
}

describe.each([false, true])("preview %s", (preview) => {
  beforeAll(() => pulumi.runtime.setMocks(mocks, "project", "stack", preview).then(liveFunctionsUnderMocks));

  test.each(CASES)("%s: the Output form matches the plain form", async (name, plain, output, args, isPurge) => {
    const a = callsDuring(() => plain(args() as never));
    const p = await a;
    const o = await callsDuring(async () => (await settled(output(asInputs(args()) as never))).value);
    expect(stable(o.result)).toEqual(stable(p.result));
    expect(o.calls).toEqual(p.calls);
    if (isPurge) {
      expect((p.result as fns.PurgeResult).preview).toBe(preview);
      expect((p.result as fns.PurgeResult).purged).toBe(!preview);
      expect(p.calls).toHaveLength(preview ? 0 : name === "purgeUrls" ? 2 : 1);
    } else {
      expect(p.calls.length).toBeGreaterThan(0);
      expect(JSON.parse(JSON.stringify(p.result))).toEqual(p.result);
    }
  });
});
