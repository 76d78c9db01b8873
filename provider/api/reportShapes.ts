/**
 * The report shapes, derived from the method table (methods.ts) as the option types are (types.ts):
 * a report's entry lists its columns and whether it may answer one bare number, and everything else
 * follows from that: the column lists the emulator sends and sorts by, the fields the client reads,
 * the client's row types and the functions' camelCase row types (functions/report-types.ts). Adding
 * a report touches its table entry, the emulator's rows and its function entry.
 */
import { METHOD_LIST, type MethodEntry } from "./methods";
import { REPORT_COLUMN_SOURCES, type ExtraColumns, type FieldSource, type ReportColumn } from "./wire";

type ReportEntry = Extract<MethodEntry, { group: "report" }>;
/** The report methods' names (`getNodeHits`). */
export type ReportName = ReportEntry["name"];
type EntryOf<R extends ReportName> = Extract<ReportEntry, { name: R }>;
/** The columns of a report's rows, as its table entry lists them. */
export type ColumnOf<R extends ReportName> = EntryOf<R>["columns"][number];

/**
 * The value type a column's kind is read into: figures are numbers, text and dates strings, a row's zone its id or
 * `null` when the row is of no single zone (the account as a whole: the server sent 0, nil or no zone_id).
 */
export type ColumnValue<C extends ReportColumn> = (typeof REPORT_COLUMN_SOURCES)[C]["kind"] extends "zone"
  ? number | null
  : (typeof REPORT_COLUMN_SOURCES)[C]["kind"] extends "number"
    ? number
    : string;

/**
 * One row of a report, as the client returns it. Every typed field is optional: a column the server
 * did not send is absent, never 0. Columns the client does not know are kept as sent.
 */
export type ReportRow<R extends ReportName> = { [C in ColumnOf<R>]?: ColumnValue<C> } & ExtraColumns;

/** Whether a report may answer one bare number (its table entry's `mayAnswerTotal`). */
export type MayAnswerTotal<R extends ReportName> = EntryOf<R> extends { readonly mayAnswerTotal: true } ? true : false;

/**
 * What the client's report method answers: its rows; for a report that may answer one bare number
 * (the contract's signature says int), rows or that number.
 */
export type ReportAnswer<R extends ReportName> =
  MayAnswerTotal<R> extends true ? ReportRow<R>[] | number : ReportRow<R>[];

/** The row type of each report. */
export type ReportRows = { [R in ReportName]: ReportRow<R> };

const REPORTS = METHOD_LIST.filter((m): m is ReportEntry => m.group === "report");

/** The columns of each report's rows, in the order the emulator sends them (its `sortby` columns too). */
export const REPORT_COLUMNS: { readonly [R in ReportName]: readonly ColumnOf<R>[] } = Object.freeze(
  Object.fromEntries(REPORTS.map((m) => [m.name, m.columns])),
) as never;

/** The typed fields of each report's rows and where they are read from. */
export const REPORT_FIELDS: { readonly [R in ReportName]: Readonly<Record<string, FieldSource>> } = Object.freeze(
  Object.fromEntries(
    REPORTS.map((m) => [m.name, Object.fromEntries(m.columns.map((c) => [c, REPORT_COLUMN_SOURCES[c]]))]),
  ),
) as never;

const TOTALS: ReadonlySet<string> = new Set(
  REPORTS.filter((m) => "mayAnswerTotal" in m && m.mayAnswerTotal).map((m) => m.name),
);

/** Whether report `name` may answer one bare number instead of rows. */
export function mayAnswerTotal(name: ReportName): boolean {
  return TOTALS.has(name);
}

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
