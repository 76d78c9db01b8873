/**
 * The report shapes, derived from the method table (methods.ts): from each report's columns and `mayAnswerTotal`
 * come the emulator's column lists and the client's and the functions' row types.
 */
import { METHOD_LIST, type MethodEntry } from "./methods";
import type { ExtraColumns, ReportColumn, REPORT_COLUMN_SOURCES } from "./wire";

type ReportEntry = Extract<MethodEntry, { group: "report" }>;
/** The report methods' names (`getNodeHits`). */
export type ReportName = ReportEntry["name"];
type EntryOf<R extends ReportName> = Extract<ReportEntry, { name: R }>;
/** The columns of a report's rows, as its table entry lists them. */
export type ColumnOf<R extends ReportName> = EntryOf<R>["columns"][number];

/** The type a column is read into: figures numbers, text and dates strings, a zone its id or `null` (all zones). */
export type ColumnValue<C extends ReportColumn> = (typeof REPORT_COLUMN_SOURCES)[C]["kind"] extends "zone"
  ? number | null
  : (typeof REPORT_COLUMN_SOURCES)[C]["kind"] extends "number"
    ? number
    : string;

/** One row of a report: a column the server did not send is absent, never 0; unknown columns are kept as sent. */
export type ReportRow<R extends ReportName> = { [C in ColumnOf<R>]?: ColumnValue<C> } & ExtraColumns;

/** Whether a report may answer one bare number (its table entry's `mayAnswerTotal`). */
export type MayAnswerTotal<R extends ReportName> = EntryOf<R> extends { readonly mayAnswerTotal: true } ? true : false;

/** What the client's report method answers: its rows, or one bare number where the report may answer a total. */
export type ReportAnswer<R extends ReportName> =
  MayAnswerTotal<R> extends true ? ReportRow<R>[] | number : ReportRow<R>[];

const REPORTS = METHOD_LIST.filter((m): m is ReportEntry => m.group === "report");

/** The columns of each report's rows, in the order the emulator sends them (its `sortby` columns too). */
export const REPORT_COLUMNS: { readonly [R in ReportName]: readonly ColumnOf<R>[] } = Object.freeze(
  Object.fromEntries(REPORTS.map((m) => [m.name, m.columns])),
) as never;

/** Whether `name` is a report method of the table. */
export function isReportName(name: string): name is ReportName {
  return Object.prototype.hasOwnProperty.call(REPORT_COLUMNS, name);
}

// The client's row types by their names of 0.1.0 (exported from the package root).
export type TotalTransferRow = ReportRow<"getTotalTransfer">;
export type TotalHitsRow = ReportRow<"getTotalHits">;
export type TransferStatsRow = ReportRow<"getTotalTransferStats">;
export type CacheHitStatsRow = ReportRow<"getCacheHitStats">;
export type PopularFileRow = ReportRow<"getPopularFiles">;
export type UsagePerDayRow = ReportRow<"getUsagePerDay">;
export type NodeHitsRow = ReportRow<"getNodeHits">;
export type ConnectionStatsRow = ReportRow<"getConnectionStats">;
export type HourlyConnectionStatsRow = ReportRow<"getHourlyConnectionStats">;
