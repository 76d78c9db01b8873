/**
 * Types of the report and account functions: their arguments, their camelCase rows and results.
 * A row's figures are optional: a column the server did not send is absent, never 0 (the
 * contract does not show the report columns, see docs/client.md); every other column it sent is
 * kept on the row under its camelCase name.
 */
import * as pulumi from "@pulumi/pulumi";
import type { DateInput, ReportType } from "./args";
import type { PagingArgs } from "./paging";

/** Columns the functions do not know, kept as sent (camelCase names). */
export interface ExtraColumns {
  readonly [column: string]: unknown;
}

export interface TotalTransfer extends ExtraColumns {
  zoneId?: number;
  from?: string;
  to?: string;
  timezone?: string;
  /** Bytes. */
  transfer?: number;
  /** A bare number the server sent in place of rows. */
  total?: number;
}
export interface TotalHits extends ExtraColumns {
  zoneId?: number;
  from?: string;
  to?: string;
  timezone?: string;
  hits?: number;
  total?: number;
}
export interface TransferStats extends ExtraColumns {
  /** `Y-m-d`, or `Y-m-d HH:00` with viewBy hourly, `Y-m` with monthly, whatever form the server sent (api/dates.ts). */
  date?: string;
  zoneId?: number;
  transfer?: number;
  hits?: number;
}
export interface CacheHitStats extends ExtraColumns {
  /** `Y-m-d`, whatever form the server sent (api/dates.ts). */
  date?: string;
  zoneId?: number;
  hits?: number;
  cacheHits?: number;
  cacheMisses?: number;
  /** cacheHits / hits, between 0 and 1. */
  cacheHitRatio?: number;
  total?: number;
}
export interface PopularFile extends ExtraColumns {
  zoneId?: number;
  url?: string;
  hits?: number;
  transfer?: number;
}
export interface UsagePerDay extends ExtraColumns {
  /** `Y-m-d`, whatever form the server sent (api/dates.ts). */
  date?: string;
  zoneId?: number;
  transfer?: number;
  hits?: number;
  total?: number;
}
export interface NodeHits extends ExtraColumns {
  node?: string;
  zoneId?: number;
  hits?: number;
  transfer?: number;
}
export interface ConnectionStats extends ExtraColumns {
  /** `Y-m-d`, whatever form the server sent (api/dates.ts). */
  date?: string;
  zoneId?: number;
  connections?: number;
  peakConcurrent?: number;
}
export interface HourlyConnectionStats extends ExtraColumns {
  /** `Y-m-d HH:00`, whatever form the server sent (api/dates.ts). */
  hour?: string;
  zoneId?: number;
  connections?: number;
  peakConcurrent?: number;
}

/** Rows of a report. */
export interface ReportResult<T> {
  rows: T[];
}

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
  /** Bytes over the window (the sum of the rows); undefined when the server answered no rows. */
  transfer?: number;
  /** False when the server answered no rows: no data, which is not 0 bytes. */
  hasData: boolean;
}
export interface GetTotalHitsResult extends ReportResult<TotalHits> {
  zoneId: number;
  /** Requests over the window; undefined when the server answered no rows. */
  hits?: number;
  hasData: boolean;
}

/** Arguments of the reports over `dateFrom`..`dateTo` (inclusive). */
export interface RangeReportArgs extends PagingArgs {
  /** Company id or alias; default `cdn:companyId`, `CDN_COMPANY_ID`, `cdn:companyAlias`, `CDN_COMPANY_ALIAS`. */
  companyId?: number | string;
  dateFrom: DateInput;
  dateTo: DateInput;
  /** One zone; all zones of the company when omitted. */
  zoneId?: number;
  /** `'<column> ASC|DESC'` entries; camelCase (`cacheHitRatio DESC`) or wire (`cache_hit_ratio DESC`) column names. The server decides which columns exist. */
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

/** One bandwidth row, when the server answers rows (the emulator does: one for the period). */
export interface Bandwidth extends ExtraColumns {
  from?: string;
  to?: string;
  /** Bytes bought for the period. */
  prepaid?: number;
  used?: number;
  remaining?: number;
}

export interface GetBandwidthArgs {
  /** Start of the period (the API's default when omitted). */
  from?: DateInput;
  to?: DateInput;
}

/**
 * The remaining prepaid bandwidth, whatever shape the server answered in: one number (as public
 * clients read it: bytes left), rows, or a struct. A figure the answer does not give is undefined.
 */
export interface GetBandwidthResult {
  /** Bytes left; undefined when the answer does not say (or had no rows). */
  remaining?: number;
  prepaid?: number;
  used?: number;
  from?: string;
  to?: string;
  /** The rows, when the answer had rows; empty for a bare number. */
  rows: Bandwidth[];
  /** False when the answer carried no figure: no data, which is not 0 bytes left. */
  hasData: boolean;
  /** The answer as the server sent it (JSON-safe). */
  raw: unknown;
}
