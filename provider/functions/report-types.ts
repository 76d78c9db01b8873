/**
 * Types of the report and account functions: their arguments, camelCase rows and results. A row's figures are optional
 * (absent, never 0, when not sent): the contract shows no report columns (docs/client.md).
 */
import * as pulumi from "@pulumi/pulumi";
import type { DateInput, ReportType } from "./args";
import type { PagingArgs } from "./paging";
import type { ColumnOf, ColumnValue, MayAnswerTotal, ReportName } from "../api/reportShapes";
import type { MethodOf } from "../api/methods";
import type { ArgOf } from "../api/types";
import type { ExtraColumns } from "../api/wire";
import type { BandwidthAnswer } from "../api/normalize";

/** `zone_id` -> `zoneId`, as the functions name wire columns and parameters. */
type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

/**
 * One row of a report as the functions return it: the table's columns (api/methods.ts) under their
 * camelCase names, each optional (a column the server did not send is absent, never 0), and every
 * other column sent kept under its camelCase name. Dates are `Y-m-d` (`Y-m-d HH:00` for an hour,
 * `Y-m` for a month), whatever form the server sent (api/dates.ts); `transfer` is in bytes.
 */
export type ReportRowOf<R extends ReportName> = {
  [C in ColumnOf<R> as CamelCase<C>]?: ColumnValue<C>;
} & ExtraColumns;

/** Rows of a report. */
export interface ReportResult<T> {
  rows: T[];
}
/**
 * What a report function returns: its rows; for a report that may answer one bare number (the
 * contract's signature says int), that number as `total` beside the rows, which are then empty.
 */
export type ReportResultOf<R extends ReportName> = ReportResult<ReportRowOf<R>> &
  (MayAnswerTotal<R> extends true
    ? { /** The bare number the server sent instead of rows. */ total?: number }
    : unknown);

export type TotalTransfer = ReportRowOf<"getTotalTransfer">;
export type TotalHits = ReportRowOf<"getTotalHits">;
export type TransferStats = ReportRowOf<"getTotalTransferStats">;
export type CacheHitStats = ReportRowOf<"getCacheHitStats">;
export type PopularFile = ReportRowOf<"getPopularFiles">;
export type UsagePerDay = ReportRowOf<"getUsagePerDay">;
export type NodeHits = ReportRowOf<"getNodeHits">;
export type ConnectionStats = ReportRowOf<"getConnectionStats">;
export type HourlyConnectionStats = ReportRowOf<"getHourlyConnectionStats">;

export interface GetTotalsArgs {
  zoneId: number;
  /** `today` (so far), `currentHour`, or `range` (needs from and to); default `range` when dates are given. */
  type?: ReportType;
  from?: DateInput;
  to?: DateInput;
  /** IANA time zone name or GMT (the API's default). */
  timezone?: string;
}
export type GetTotalsOutputArgs = Inputs<GetTotalsArgs>;

export type GetTotalTransferResult = ReportResultOf<"getTotalTransfer"> & {
  zoneId: number;
  /** Bytes over the window (the sum of the rows); undefined when the server answered no rows. */
  transfer?: number;
  /** False when the server answered no rows: no data, which is not 0 bytes. */
  hasData: boolean;
};
export type GetTotalHitsResult = ReportResultOf<"getTotalHits"> & {
  zoneId: number;
  /** Requests over the window; undefined when the server answered no rows. */
  hits?: number;
  hasData: boolean;
};

type ParamOf<R extends ReportName> = MethodOf<`report.${R}`>["params"][number];
/** The parameters a function takes under another name or from elsewhere: companyId (optional, from the stack), paging. */
type OwnParam<P> = P extends { readonly name: "companyId" | "maxReturn" | "offset" } ? never : P;
/** A parameter's name as a function argument: camelCase (`sortBy`, `viewBy`). */
type ArgName<N extends string> = N extends "sortby" ? "sortBy" : N extends "viewby" ? "viewBy" : N;
/** A parameter's type as a function argument: dates as `Date` or `Y-m-d`, the rest as the client takes them. */
type ArgType<P> = P extends { readonly type: "date" } ? DateInput : ArgOf<P>;

/**
 * The arguments of a report function, derived from the report's parameters in the method table:
 * `companyId` (a company id or alias; default `cdn:companyId`, `CDN_COMPANY_ID`, `cdn:companyAlias`,
 * `CDN_COMPANY_ALIAS`); its dates (`dateFrom`..`dateTo` inclusive, or the `date` whose hours are
 * reported) as `Date` or `Y-m-d`; `zoneId` (one zone; all zones of the company when omitted, where
 * the API allows it); `sortBy` (`'<column> ASC|DESC'` entries, camelCase or wire column names: the
 * server decides which exist); `viewBy` and `timezone` where the report takes them; and paging.
 */
export type ReportArgsOf<R extends ReportName> = PagingArgs & {
  companyId?: number | string;
} & {
  [P in OwnParam<ParamOf<R>> as P extends { readonly required: true } ? ArgName<P["name"]> : never]: ArgType<P>;
} & {
  [P in OwnParam<ParamOf<R>> as P extends { readonly required: false } ? ArgName<P["name"]> : never]?: ArgType<P>;
};

/** Arguments of the reports over `dateFrom`..`dateTo` (inclusive) that take no more. */
export type RangeReportArgs = ReportArgsOf<"getNodeHits">;
export type GetTotalTransferStatsArgs = ReportArgsOf<"getTotalTransferStats">;
export type GetCacheHitStatsArgs = ReportArgsOf<"getCacheHitStats">;
export type GetPopularFilesArgs = ReportArgsOf<"getPopularFiles">;
export type GetUsagePerDayArgs = ReportArgsOf<"getUsagePerDay">;
export type GetNodeHitsArgs = ReportArgsOf<"getNodeHits">;
export type GetConnectionStatsArgs = ReportArgsOf<"getConnectionStats">;
export type GetHourlyConnectionStatsArgs = ReportArgsOf<"getHourlyConnectionStats">;

/** Output-form arguments: every field an Input. */
export type Inputs<T> = { [K in keyof T]: pulumi.Input<T[K]> };

/** One bandwidth row, when the server answers rows (the emulator does: one for the period): the answer's figures. */
export type Bandwidth = Pick<BandwidthAnswer, "from" | "to" | "prepaid" | "used" | "remaining"> & ExtraColumns;

export interface GetBandwidthArgs {
  /** Start of the period (the API's default when omitted). */
  from?: DateInput;
  to?: DateInput;
}

/**
 * The remaining prepaid bandwidth, whatever shape the server answered in: one number (as public
 * clients read it: bytes left), rows, or a struct; the client's answer with its rows camelCase.
 */
export type GetBandwidthResult = Omit<BandwidthAnswer, "rows"> & { rows: Bandwidth[] };
