/**
 * The report functions: camelCase arguments, `Date` or `Y-m-d` dates, a named `type` for the
 * totals, `companyId` from the stack when omitted, paging with `allPages`, and typed camelCase rows.
 */
import * as pulumi from "@pulumi/pulumi";
import { CdnClient, ReportRangeOptions } from "../api/client";
import { CdnProtocolError, CdnValidationError } from "../api/errors";
import { asId, idProblem } from "../api/ids";
import { camelCase, checkArgs, checkOrder, dateArg, intArg, reportType, sortByArg, stringArg } from "./args";
import { clientFor, companyIdFor, FunctionOptions, FunctionOutputOptions } from "./connection";
import { lift } from "./lift";
import { Page, pager, PAGING_ARGS } from "./paging";
import type {
  CacheHitStats,
  ConnectionStats,
  GetCacheHitStatsArgs,
  GetConnectionStatsArgs,
  GetHourlyConnectionStatsArgs,
  GetNodeHitsArgs,
  GetPopularFilesArgs,
  GetTotalHitsResult,
  GetTotalsArgs,
  GetTotalsOutputArgs,
  GetTotalTransferResult,
  GetTotalTransferStatsArgs,
  GetUsagePerDayArgs,
  HourlyConnectionStats,
  Inputs,
  NodeHits,
  PopularFile,
  RangeReportArgs,
  ReportResult,
  TotalHits,
  TotalTransfer,
  TransferStats,
  UsagePerDay,
} from "./report-types";

/** Turns a wire row into camelCase (`zone_id` -> `zoneId`); values are already JSON-safe, numbers numbers. */
export function camelRow<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[camelCase(k)] = v;
  return out as T;
}

// ---- totals ----------------------------------------------------------------------------------

async function totals(
  fn: "getTotalTransfer" | "getTotalHits",
  args: GetTotalsArgs,
  opts?: FunctionOptions,
): Promise<{ zoneId: number; rows: Record<string, unknown>[] }> {
  const a = checkArgs(fn, args, ["zoneId", "type", "from", "to", "timezone"]);
  const zoneId = intArg(fn, "zoneId", a.zoneId, true)!;
  const from = dateArg(fn, "from", a.from);
  const to = dateArg(fn, "to", a.to);
  checkOrder(fn, "from", from, "to", to);
  const type = reportType(fn, a.type, from !== undefined || to !== undefined);
  if (type === 3 && (from === undefined || to === undefined))
    throw new CdnValidationError(
      from === undefined ? "from" : "to",
      "is required with type 'range' (give from and to)",
      fn,
    );
  const timezone = stringArg(fn, "timezone", a.timezone);
  const client = clientFor(opts);
  const rows = (await client.report[fn](zoneId, { type, from, to, timezone })) as unknown as Record<string, unknown>[];
  return { zoneId, rows };
}

/**
 * The sum of one figure over the rows: undefined for no rows (no data is not 0); an error naming
 * the columns that did come when a row lacks the figure, never a silent 0.
 */
export function sumOf(rows: readonly Record<string, unknown>[], field: string, method: string): number | undefined {
  if (rows.length === 0) return undefined;
  let total = 0;
  for (const r of rows) {
    const v = r[field];
    if (typeof v !== "number") {
      const columns = Object.keys(r).filter((k) => r[k] !== undefined);
      throw new CdnProtocolError(
        `the rows carry no '${field}' figure (columns sent: ${columns.join(", ") || "none"}), so the total is unknown`,
        method,
      );
    }
    total += v;
  }
  return total;
}

/** Bytes served by a zone today so far, in the current hour, or over a date range. */
export async function getTotalTransfer(args: GetTotalsArgs, opts?: FunctionOptions): Promise<GetTotalTransferResult> {
  const { zoneId, rows } = await totals("getTotalTransfer", args, opts);
  return {
    zoneId,
    transfer: sumOf(rows, "transfer", "report.getTotalTransfer"),
    hasData: rows.length > 0,
    rows: rows.map((r) => camelRow<TotalTransfer>(r)),
  };
}
export function getTotalTransferOutput(
  args: GetTotalsOutputArgs,
  opts?: FunctionOutputOptions,
): pulumi.Output<GetTotalTransferResult> {
  return lift(getTotalTransfer, args, opts);
}

/** Requests served by a zone today so far, in the current hour, or over a date range. */
export async function getTotalHits(args: GetTotalsArgs, opts?: FunctionOptions): Promise<GetTotalHitsResult> {
  const { zoneId, rows } = await totals("getTotalHits", args, opts);
  return {
    zoneId,
    hits: sumOf(rows, "hits", "report.getTotalHits"),
    hasData: rows.length > 0,
    rows: rows.map((r) => camelRow<TotalHits>(r)),
  };
}
export function getTotalHitsOutput(
  args: GetTotalsOutputArgs,
  opts?: FunctionOutputOptions,
): pulumi.Output<GetTotalHitsResult> {
  return lift(getTotalHits, args, opts);
}

// ---- range reports ---------------------------------------------------------------------------

type RangeName =
  | "getTotalTransferStats"
  | "getCacheHitStats"
  | "getPopularFiles"
  | "getUsagePerDay"
  | "getNodeHits"
  | "getConnectionStats";

interface RangeShape {
  timezone?: boolean;
  viewBy?: boolean;
  zoneRequired?: boolean;
}
const SHAPES: Record<RangeName, RangeShape> = {
  getTotalTransferStats: { timezone: true, viewBy: true },
  getCacheHitStats: { timezone: true },
  getPopularFiles: {},
  getUsagePerDay: { zoneRequired: true },
  getNodeHits: {},
  getConnectionStats: { timezone: true },
};

function companyArg(fn: string, v: unknown): number | string | undefined {
  if (v === undefined || v === null) return undefined;
  if ((typeof v === "number" && asId(v) !== undefined) || (typeof v === "string" && v !== "")) return v;
  throw new CdnValidationError(
    "companyId",
    `must be a company id or a company alias (text): ${idProblem(v, "it")}`,
    fn,
  );
}

function callRange(
  client: CdnClient,
  fn: RangeName,
  company: number | string,
  from: string,
  to: string,
  zoneId: number | undefined,
  o: ReportRangeOptions & { viewby?: string },
): Promise<Record<string, unknown>[]> {
  const r = client.report;
  switch (fn) {
    case "getUsagePerDay": {
      const { zoneId: _z, timezone: _t, ...rest } = o;
      return r.getUsagePerDay(company, from, to, zoneId!, rest) as never;
    }
    case "getTotalTransferStats":
      return r.getTotalTransferStats(company, from, to, { ...o, zoneId, viewby: o.viewby as never }) as never;
    case "getPopularFiles":
    case "getNodeHits": {
      const { timezone: _t, ...rest } = o;
      return r[fn](company, from, to, { ...rest, zoneId }) as never;
    }
    default:
      return r[fn](company, from, to, { ...o, zoneId }) as never;
  }
}

/** Drops undefined options so the client's option check sees only what was given. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

async function rangeReport<T>(
  fn: RangeName,
  args: RangeReportArgs & { viewBy?: string; timezone?: string },
  opts?: FunctionOptions,
): Promise<ReportResult<T>> {
  const shape = SHAPES[fn];
  const allowed = [
    "companyId",
    "dateFrom",
    "dateTo",
    "zoneId",
    "sortBy",
    ...PAGING_ARGS,
    ...(shape.timezone ? ["timezone"] : []),
    ...(shape.viewBy ? ["viewBy"] : []),
  ];
  const a = checkArgs(fn, args, allowed);
  const dateFrom = dateArg(fn, "dateFrom", a.dateFrom, true)!;
  const dateTo = dateArg(fn, "dateTo", a.dateTo, true)!;
  checkOrder(fn, "dateFrom", dateFrom, "dateTo", dateTo);
  const zoneId = intArg(fn, "zoneId", a.zoneId, shape.zoneRequired);
  const sortby = sortByArg(fn, a.sortBy);
  const timezone = stringArg(fn, "timezone", a.timezone);
  const viewby = stringArg(fn, "viewBy", a.viewBy);
  const fetchAll = pager(fn, a);
  const company = companyIdFor(opts, companyArg(fn, a.companyId));
  const client = clientFor(opts);
  const rows = await fetchAll((page: Page) =>
    callRange(client, fn, company, dateFrom, dateTo, zoneId, defined({ sortby, timezone, viewby, ...page })),
  );
  return { rows: rows.map((r) => camelRow<T>(r)) };
}

/** Transfer and hits per day (or hour, or month with `viewBy`) for the company or one zone. */
export function getTotalTransferStats(
  args: GetTotalTransferStatsArgs,
  opts?: FunctionOptions,
): Promise<ReportResult<TransferStats>> {
  return rangeReport("getTotalTransferStats", args, opts);
}
export function getTotalTransferStatsOutput(
  args: Inputs<GetTotalTransferStatsArgs>,
  opts?: FunctionOutputOptions,
): pulumi.Output<ReportResult<TransferStats>> {
  return lift(getTotalTransferStats, args, opts);
}

/** Hits served from cache and from the origin, per day and zone. */
export function getCacheHitStats(
  args: GetCacheHitStatsArgs,
  opts?: FunctionOptions,
): Promise<ReportResult<CacheHitStats>> {
  return rangeReport("getCacheHitStats", args, opts);
}
export function getCacheHitStatsOutput(
  args: Inputs<GetCacheHitStatsArgs>,
  opts?: FunctionOutputOptions,
): pulumi.Output<ReportResult<CacheHitStats>> {
  return lift(getCacheHitStats, args, opts);
}

/** The most requested files (by hits, most first, unless `sortBy` says otherwise). */
export function getPopularFiles(args: GetPopularFilesArgs, opts?: FunctionOptions): Promise<ReportResult<PopularFile>> {
  return rangeReport("getPopularFiles", args, opts);
}
export function getPopularFilesOutput(
  args: Inputs<GetPopularFilesArgs>,
  opts?: FunctionOutputOptions,
): pulumi.Output<ReportResult<PopularFile>> {
  return lift(getPopularFiles, args, opts);
}

/** Transfer and hits of one zone, per day. */
export function getUsagePerDay(args: GetUsagePerDayArgs, opts?: FunctionOptions): Promise<ReportResult<UsagePerDay>> {
  return rangeReport("getUsagePerDay", args, opts);
}
export function getUsagePerDayOutput(
  args: Inputs<GetUsagePerDayArgs>,
  opts?: FunctionOutputOptions,
): pulumi.Output<ReportResult<UsagePerDay>> {
  return lift(getUsagePerDay, args, opts);
}

/** Hits and transfer per edge node. */
export function getNodeHits(args: GetNodeHitsArgs, opts?: FunctionOptions): Promise<ReportResult<NodeHits>> {
  return rangeReport("getNodeHits", args, opts);
}
export function getNodeHitsOutput(
  args: Inputs<GetNodeHitsArgs>,
  opts?: FunctionOutputOptions,
): pulumi.Output<ReportResult<NodeHits>> {
  return lift(getNodeHits, args, opts);
}

/** Live-zone connections per day. */
export function getConnectionStats(
  args: GetConnectionStatsArgs,
  opts?: FunctionOptions,
): Promise<ReportResult<ConnectionStats>> {
  return rangeReport("getConnectionStats", args, opts);
}
export function getConnectionStatsOutput(
  args: Inputs<GetConnectionStatsArgs>,
  opts?: FunctionOutputOptions,
): pulumi.Output<ReportResult<ConnectionStats>> {
  return lift(getConnectionStats, args, opts);
}

/** Live-zone connections per hour of one day. */
export async function getHourlyConnectionStats(
  args: GetHourlyConnectionStatsArgs,
  opts?: FunctionOptions,
): Promise<ReportResult<HourlyConnectionStats>> {
  const fn = "getHourlyConnectionStats";
  const a = checkArgs(fn, args, ["companyId", "date", "zoneId", "sortBy", "timezone", ...PAGING_ARGS]);
  const date = dateArg(fn, "date", a.date, true)!;
  const zoneId = intArg(fn, "zoneId", a.zoneId);
  const sortby = sortByArg(fn, a.sortBy);
  const timezone = stringArg(fn, "timezone", a.timezone);
  const fetchAll = pager(fn, a);
  const company = companyIdFor(opts, companyArg(fn, a.companyId));
  const client = clientFor(opts);
  const rows = await fetchAll(
    (page: Page) =>
      client.report.getHourlyConnectionStats(
        company,
        date,
        defined({ zoneId, sortby, timezone, ...page }),
      ) as unknown as Promise<Record<string, unknown>[]>,
  );
  return { rows: rows.map((r) => camelRow<HourlyConnectionStats>(r)) };
}
export function getHourlyConnectionStatsOutput(
  args: Inputs<GetHourlyConnectionStatsArgs>,
  opts?: FunctionOutputOptions,
): pulumi.Output<ReportResult<HourlyConnectionStats>> {
  return lift(getHourlyConnectionStats, args, opts);
}
