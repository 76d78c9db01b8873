/**
 * The report functions: camelCase arguments, `Date` or `Y-m-d` dates, a named `type` for the
 * totals, `companyId` from the stack when omitted, paging with `allPages`, and typed camelCase rows.
 */
import * as pulumi from "@pulumi/pulumi";
import { CdnClient, ReportRangeOptions } from "../api/client";
import { CdnValidationError } from "../api/errors";
import { camelCase, checkArgs, checkOrder, DateInput, dateArg, intArg, reportType, ReportType, sortByArg, stringArg } from "./args";
import { clientFor, companyIdFor, FunctionOptions, FunctionOutputOptions } from "./connection";
import { lift } from "./lift";
import { Page, pager, PAGING_ARGS, PagingArgs } from "./paging";

/** Turns a wire row into camelCase (`zone_id` -> `zoneId`); values are already JSON-safe, numbers numbers. */
export function camelRow<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) out[camelCase(k)] = v;
  return out as T;
}

// ---- row types -------------------------------------------------------------------------------

export interface TotalTransfer {
  zoneId: number;
  from: string;
  to: string;
  timezone: string;
  /** Bytes. */
  transfer: number;
}
export interface TotalHits {
  zoneId: number;
  from: string;
  to: string;
  timezone: string;
  hits: number;
}
export interface TransferStats {
  /** `Y-m-d`, or `Y-m-d HH:00` with viewBy hourly, `Y-m` with monthly. */
  date: string;
  zoneId: number;
  transfer: number;
  hits: number;
}
export interface CacheHitStats {
  date: string;
  zoneId: number;
  hits: number;
  cacheHits: number;
  cacheMisses: number;
  /** cacheHits / hits, between 0 and 1. */
  cacheHitRatio: number;
}
export interface PopularFile {
  zoneId: number;
  url: string;
  hits: number;
  transfer: number;
}
export interface UsagePerDay {
  date: string;
  zoneId: number;
  transfer: number;
  hits: number;
}
export interface NodeHits {
  node: string;
  zoneId: number;
  hits: number;
  transfer: number;
}
export interface ConnectionStats {
  date: string;
  zoneId: number;
  connections: number;
  peakConcurrent: number;
}
export interface HourlyConnectionStats {
  hour: string;
  zoneId: number;
  connections: number;
  peakConcurrent: number;
}

/** Rows of a report. */
export interface ReportResult<T> {
  rows: T[];
}

// ---- totals ----------------------------------------------------------------------------------

export interface GetTotalsArgs {
  zoneId: number;
  /** `today` (so far), `currentHour`, or `range` (needs from and to); default `range` when dates are given. */
  type?: ReportType;
  from?: DateInput;
  to?: DateInput;
  /** IANA time zone name or GMT (the API's default). */
  timezone?: string;
}
export type GetTotalsOutputArgs = { [K in keyof GetTotalsArgs]: pulumi.Input<GetTotalsArgs[K]> };

export interface GetTotalTransferResult extends ReportResult<TotalTransfer> {
  zoneId: number;
  /** Bytes over the window (the sum of the rows). */
  transfer: number;
}
export interface GetTotalHitsResult extends ReportResult<TotalHits> {
  zoneId: number;
  hits: number;
}

async function totals(fn: "getTotalTransfer" | "getTotalHits", args: GetTotalsArgs, opts?: FunctionOptions): Promise<{ zoneId: number; rows: Record<string, unknown>[] }> {
  const a = checkArgs(fn, args, ["zoneId", "type", "from", "to", "timezone"]);
  const zoneId = intArg(fn, "zoneId", a.zoneId, true)!;
  const from = dateArg(fn, "from", a.from);
  const to = dateArg(fn, "to", a.to);
  checkOrder(fn, "from", from, "to", to);
  const type = reportType(fn, a.type, from !== undefined || to !== undefined);
  if (type === 3 && (from === undefined || to === undefined)) throw new CdnValidationError(from === undefined ? "from" : "to", "is required with type 'range' (give from and to)", fn);
  const timezone = stringArg(fn, "timezone", a.timezone);
  const client = clientFor(opts);
  const rows = (await client.report[fn](zoneId, { type, from, to, timezone })) as unknown as Record<string, unknown>[];
  return { zoneId, rows };
}

function sum(rows: Record<string, unknown>[], field: string): number {
  return rows.reduce((s, r) => s + (typeof r[field] === "number" ? (r[field] as number) : 0), 0);
}

/** Bytes served by a zone today so far, in the current hour, or over a date range. */
export async function getTotalTransfer(args: GetTotalsArgs, opts?: FunctionOptions): Promise<GetTotalTransferResult> {
  const { zoneId, rows } = await totals("getTotalTransfer", args, opts);
  return { zoneId, transfer: sum(rows, "transfer"), rows: rows.map((r) => camelRow<TotalTransfer>(r)) };
}
export function getTotalTransferOutput(args: GetTotalsOutputArgs, opts?: FunctionOutputOptions): pulumi.Output<GetTotalTransferResult> {
  return lift(getTotalTransfer, args, opts);
}

/** Requests served by a zone today so far, in the current hour, or over a date range. */
export async function getTotalHits(args: GetTotalsArgs, opts?: FunctionOptions): Promise<GetTotalHitsResult> {
  const { zoneId, rows } = await totals("getTotalHits", args, opts);
  return { zoneId, hits: sum(rows, "hits"), rows: rows.map((r) => camelRow<TotalHits>(r)) };
}
export function getTotalHitsOutput(args: GetTotalsOutputArgs, opts?: FunctionOutputOptions): pulumi.Output<GetTotalHitsResult> {
  return lift(getTotalHits, args, opts);
}

// ---- range reports ---------------------------------------------------------------------------

/** Arguments of the reports over `dateFrom`..`dateTo` (inclusive). */
export interface RangeReportArgs extends PagingArgs {
  /** Company id or alias; default `cdn:companyId`, `CDN_COMPANY_ID`, `cdn:companyAlias`, `CDN_COMPANY_ALIAS`. */
  companyId?: number | string;
  dateFrom: DateInput;
  dateTo: DateInput;
  /** One zone; all zones of the company when omitted. */
  zoneId?: number;
  /** `'<column> ASC|DESC'` entries; camelCase (`cacheHitRatio DESC`) or wire (`cache_hit_ratio DESC`) column names. */
  sortBy?: string[];
}
export interface GetTotalTransferStatsArgs extends RangeReportArgs {
  viewBy?: "hourly" | "daily" | "monthly";
  timezone?: string;
}
export interface GetCacheHitStatsArgs extends RangeReportArgs {
  timezone?: string;
}
export type GetPopularFilesArgs = RangeReportArgs;
export interface GetUsagePerDayArgs extends RangeReportArgs {
  /** Required by the API for this report. */
  zoneId: number;
}
export type GetNodeHitsArgs = RangeReportArgs;
export interface GetConnectionStatsArgs extends RangeReportArgs {
  timezone?: string;
}
export interface GetHourlyConnectionStatsArgs extends PagingArgs {
  companyId?: number | string;
  /** The day whose hours are reported. */
  date: DateInput;
  zoneId?: number;
  sortBy?: string[];
  timezone?: string;
}

/** Output-form arguments: every field an Input. */
export type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

type RangeName = "getTotalTransferStats" | "getCacheHitStats" | "getPopularFiles" | "getUsagePerDay" | "getNodeHits" | "getConnectionStats";

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
  if ((typeof v === "number" && Number.isInteger(v) && v > 0) || (typeof v === "string" && v !== "")) return v;
  throw new CdnValidationError("companyId", "must be a company id (a positive integer) or a company alias (text)", fn);
}

function callRange(client: CdnClient, fn: RangeName, company: number | string, from: string, to: string, zoneId: number | undefined, o: ReportRangeOptions & { viewby?: string }): Promise<Record<string, unknown>[]> {
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

async function rangeReport<T>(fn: RangeName, args: RangeReportArgs & { viewBy?: string; timezone?: string }, opts?: FunctionOptions): Promise<ReportResult<T>> {
  const shape = SHAPES[fn];
  const allowed = ["companyId", "dateFrom", "dateTo", "zoneId", "sortBy", ...PAGING_ARGS, ...(shape.timezone ? ["timezone"] : []), ...(shape.viewBy ? ["viewBy"] : [])];
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
  const rows = await fetchAll((page: Page) => callRange(client, fn, company, dateFrom, dateTo, zoneId, defined({ sortby, timezone, viewby, ...page })));
  return { rows: rows.map((r) => camelRow<T>(r)) };
}

/** Transfer and hits per day (or hour, or month with `viewBy`) for the company or one zone. */
export function getTotalTransferStats(args: GetTotalTransferStatsArgs, opts?: FunctionOptions): Promise<ReportResult<TransferStats>> {
  return rangeReport("getTotalTransferStats", args, opts);
}
export function getTotalTransferStatsOutput(args: Inputs<GetTotalTransferStatsArgs>, opts?: FunctionOutputOptions): pulumi.Output<ReportResult<TransferStats>> {
  return lift(getTotalTransferStats, args, opts);
}

/** Hits served from cache and from the origin, per day and zone. */
export function getCacheHitStats(args: GetCacheHitStatsArgs, opts?: FunctionOptions): Promise<ReportResult<CacheHitStats>> {
  return rangeReport("getCacheHitStats", args, opts);
}
export function getCacheHitStatsOutput(args: Inputs<GetCacheHitStatsArgs>, opts?: FunctionOutputOptions): pulumi.Output<ReportResult<CacheHitStats>> {
  return lift(getCacheHitStats, args, opts);
}

/** The most requested files (by hits, most first, unless `sortBy` says otherwise). */
export function getPopularFiles(args: GetPopularFilesArgs, opts?: FunctionOptions): Promise<ReportResult<PopularFile>> {
  return rangeReport("getPopularFiles", args, opts);
}
export function getPopularFilesOutput(args: Inputs<GetPopularFilesArgs>, opts?: FunctionOutputOptions): pulumi.Output<ReportResult<PopularFile>> {
  return lift(getPopularFiles, args, opts);
}

/** Transfer and hits of one zone, per day. */
export function getUsagePerDay(args: GetUsagePerDayArgs, opts?: FunctionOptions): Promise<ReportResult<UsagePerDay>> {
  return rangeReport("getUsagePerDay", args, opts);
}
export function getUsagePerDayOutput(args: Inputs<GetUsagePerDayArgs>, opts?: FunctionOutputOptions): pulumi.Output<ReportResult<UsagePerDay>> {
  return lift(getUsagePerDay, args, opts);
}

/** Hits and transfer per edge node. */
export function getNodeHits(args: GetNodeHitsArgs, opts?: FunctionOptions): Promise<ReportResult<NodeHits>> {
  return rangeReport("getNodeHits", args, opts);
}
export function getNodeHitsOutput(args: Inputs<GetNodeHitsArgs>, opts?: FunctionOutputOptions): pulumi.Output<ReportResult<NodeHits>> {
  return lift(getNodeHits, args, opts);
}

/** Live-zone connections per day. */
export function getConnectionStats(args: GetConnectionStatsArgs, opts?: FunctionOptions): Promise<ReportResult<ConnectionStats>> {
  return rangeReport("getConnectionStats", args, opts);
}
export function getConnectionStatsOutput(args: Inputs<GetConnectionStatsArgs>, opts?: FunctionOutputOptions): pulumi.Output<ReportResult<ConnectionStats>> {
  return lift(getConnectionStats, args, opts);
}

/** Live-zone connections per hour of one day. */
export async function getHourlyConnectionStats(args: GetHourlyConnectionStatsArgs, opts?: FunctionOptions): Promise<ReportResult<HourlyConnectionStats>> {
  const fn = "getHourlyConnectionStats";
  const a = checkArgs(fn, args, ["companyId", "date", "zoneId", "sortBy", "timezone", ...PAGING_ARGS]);
  const date = dateArg(fn, "date", a.date, true)!;
  const zoneId = intArg(fn, "zoneId", a.zoneId);
  const sortby = sortByArg(fn, a.sortBy);
  const timezone = stringArg(fn, "timezone", a.timezone);
  const fetchAll = pager(fn, a);
  const company = companyIdFor(opts, companyArg(fn, a.companyId));
  const client = clientFor(opts);
  const rows = await fetchAll((page: Page) => client.report.getHourlyConnectionStats(company, date, defined({ zoneId, sortby, timezone, ...page })) as unknown as Promise<Record<string, unknown>[]>);
  return { rows: rows.map((r) => camelRow<HourlyConnectionStats>(r)) };
}
export function getHourlyConnectionStatsOutput(args: Inputs<GetHourlyConnectionStatsArgs>, opts?: FunctionOutputOptions): pulumi.Output<ReportResult<HourlyConnectionStats>> {
  return lift(getHourlyConnectionStats, args, opts);
}
