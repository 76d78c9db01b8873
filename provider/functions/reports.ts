/**
 * The report functions: camelCase arguments, `Date` or `Y-m-d` dates, a named `type` for the
 * totals, `companyId` from the stack when omitted, paging with `allPages`, and typed camelCase rows.
 */
import * as pulumi from "@pulumi/pulumi";
import { callByName, CdnClient } from "../api/client";
import { CdnProtocolError, CdnValidationError } from "../api/errors";
import { asId, idProblem } from "../api/ids";
import { findMethod, type ParamSpec } from "../api/methods";
import type { ReportName } from "../api/reportShapes";
import { camelRow, checkArgs, intArg, reportType, sortByArg, stringArg } from "./args";
import { clientFor, companyIdFor, FunctionOptions, FunctionOutputOptions } from "./connection";
import { outputForm } from "./outputForm";
import { mockableOutput, mockablePromise } from "./mocks";
import { Page, pager, PAGING_ARGS } from "./paging";
import type {
  GetTotalHitsResult,
  GetTotalsArgs,
  GetTotalsOutputArgs,
  GetTotalTransferResult,
  Inputs,
  ReportArgsOf,
  ReportResultOf,
  ReportRowOf,
} from "./report-types";

// ---- totals ----------------------------------------------------------------------------------

async function totals(
  fn: "getTotalTransfer" | "getTotalHits",
  args: GetTotalsArgs,
  opts?: FunctionOptions,
): Promise<{ zoneId: number; rows: Record<string, unknown>[]; total?: number }> {
  const a = checkArgs(fn, args, ["zoneId", "type", "from", "to", "timezone"]);
  const zoneId = intArg(fn, "zoneId", a.zoneId, true)!;
  const type = reportType(fn, a.type, (a.from ?? a.to) != null);
  const timezone = stringArg(fn, "timezone", a.timezone);
  // Dates, their order and a range's two ends are the client's to check (encode.ts), once.
  const byName = { zoneId, type, from: a.from, to: a.to, timezone };
  const answer = (await callByName(clientFor(opts), `report.${fn}`, byName)) as Record<string, unknown>[] | number;
  return typeof answer === "number" ? { zoneId, rows: [], total: answer } : { zoneId, rows: answer };
}

/**
 * The sum of one figure over the rows: undefined for no rows (no data is not 0); an error naming
 * the columns that did come when a row lacks the figure, never a silent 0.
 */
function sumOf(rows: readonly Record<string, unknown>[], field: string, method: string): number | undefined {
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
async function totalTransfer(args: GetTotalsArgs, opts?: FunctionOptions): Promise<GetTotalTransferResult> {
  const { zoneId, rows, total } = await totals("getTotalTransfer", args, opts);
  return {
    zoneId,
    transfer: total ?? sumOf(rows, "transfer", "report.getTotalTransfer"),
    hasData: total !== undefined || rows.length > 0,
    rows: rows.map((r) => camelRow<ReportRowOf<"getTotalTransfer">>(r)),
    ...(total === undefined ? {} : { total }),
  };
}
export const getTotalTransfer = mockablePromise("getTotalTransfer", totalTransfer);
export const getTotalTransferOutput = mockableOutput(
  "getTotalTransferOutput",
  (args: GetTotalsOutputArgs, opts?: FunctionOutputOptions): pulumi.Output<GetTotalTransferResult> =>
    outputForm(totalTransfer, args, opts),
);

/** Requests served by a zone today so far, in the current hour, or over a date range. */
async function totalHits(args: GetTotalsArgs, opts?: FunctionOptions): Promise<GetTotalHitsResult> {
  const { zoneId, rows, total } = await totals("getTotalHits", args, opts);
  return {
    zoneId,
    hits: total ?? sumOf(rows, "hits", "report.getTotalHits"),
    hasData: total !== undefined || rows.length > 0,
    rows: rows.map((r) => camelRow<ReportRowOf<"getTotalHits">>(r)),
    ...(total === undefined ? {} : { total }),
  };
}
export const getTotalHits = mockablePromise("getTotalHits", totalHits);
export const getTotalHitsOutput = mockableOutput(
  "getTotalHitsOutput",
  (args: GetTotalsOutputArgs, opts?: FunctionOutputOptions): pulumi.Output<GetTotalHitsResult> =>
    outputForm(totalHits, args, opts),
);

// ---- the other reports: one generic function over the method table -------------------------

/** The reports served by {@link report}: every report but the totals, whose `type` is named. */
type RangeName = Exclude<ReportName, "getTotalTransfer" | "getTotalHits">;

/** A wire parameter's name as a function argument. */
const argName = (p: ParamSpec): string => (p.name === "sortby" ? "sortBy" : p.name === "viewby" ? "viewBy" : p.name);
/** Parameters the pager fills (paging.ts), not read as arguments. */
const PAGED: ReadonlySet<string> = new Set(["maxReturn", "offset"]);

function companyArg(fn: string, v: unknown): number | string | undefined {
  if (v === undefined || v === null) return undefined;
  if ((typeof v === "number" && asId(v) !== undefined) || (typeof v === "string" && v !== "")) return v;
  throw new CdnValidationError(
    "companyId",
    `must be a company id or a company alias (text): ${idProblem(v, "it")}`,
    fn,
  );
}

/** One argument as the client takes it: camelCase sortBy entries renamed, text checked for control characters. */
function readArg(fn: string, p: ParamSpec, v: unknown): unknown {
  if (p.type === "sortby") return sortByArg(fn, v);
  return p.type === "string" ? stringArg(fn, argName(p), v) : v;
}

/** Report `fn` with its parameters by wire name (the client checks them, once). */
const callReport = (client: CdnClient, fn: RangeName, byName: Record<string, unknown>) =>
  callByName(client, `report.${fn}`, byName) as Promise<Record<string, unknown>[] | number>;

/**
 * A report function: its arguments are its table entry's parameters (camelCase, dates as `Date` or
 * `Y-m-d`, `companyId` from the stack when omitted, paging with `allPages`); its result the rows in
 * camelCase, or the bare number the server sent as `total` (rows then empty).
 */
async function report<R extends RangeName>(
  fn: R,
  args: ReportArgsOf<R>,
  opts?: FunctionOptions,
): Promise<ReportResultOf<R>> {
  const params = findMethod(`report.${fn}`)!.params;
  const own = params.filter((p) => !PAGED.has(p.name));
  const a = checkArgs(fn, args, [...own.map(argName), ...PAGING_ARGS]);
  const wire: Record<string, unknown> = {};
  for (const p of own) if (p.name !== "companyId") wire[p.name] = readArg(fn, p, a[argName(p)]);
  const fetchAll = pager(fn, a);
  wire.companyId = companyIdFor(opts, companyArg(fn, a.companyId));
  const client = clientFor(opts);
  let total: number | undefined;
  const rows = await fetchAll(async (page: Page) => {
    const answer = await callReport(client, fn, { ...wire, ...page });
    if (typeof answer !== "number") return answer;
    total = answer;
    return [];
  });
  const result = { rows: rows.map((r) => camelRow<ReportRowOf<R>>(r)) };
  return (total === undefined ? result : { ...result, total }) as ReportResultOf<R>;
}

/**
 * The function and its Output form for report `fn`, named `fn` and `fnOutput` (as error stacks and mocks show them):
 * the one line a new report needs here, besides its entry in the method table and the emulator's rows.
 */
function reportFunction<R extends RangeName>(fn: R) {
  const call = (args: ReportArgsOf<R>, opts?: FunctionOptions): Promise<ReportResultOf<R>> => report(fn, args, opts);
  const output = (args: Inputs<ReportArgsOf<R>>, opts?: FunctionOutputOptions): pulumi.Output<ReportResultOf<R>> =>
    outputForm(call, args, opts);
  // Answered by `mocks.call` under setMocks, as every function is (mocks.ts).
  return [mockablePromise(fn, call), mockableOutput(`${fn}Output`, output)] as const;
}

/** Transfer and hits per day (or hour, or month with `viewBy`) for the company or one zone. */
export const [getTotalTransferStats, getTotalTransferStatsOutput] = reportFunction("getTotalTransferStats");
/** Hits served from cache and from the origin, per day and zone (or one bare number, as `total`). */
export const [getCacheHitStats, getCacheHitStatsOutput] = reportFunction("getCacheHitStats");
/** The most requested files (by hits, most first, unless `sortBy` says otherwise). */
export const [getPopularFiles, getPopularFilesOutput] = reportFunction("getPopularFiles");
/** Transfer and hits of one zone, per day (or one bare number, as `total`). */
export const [getUsagePerDay, getUsagePerDayOutput] = reportFunction("getUsagePerDay");
/** Hits and transfer per edge node. */
export const [getNodeHits, getNodeHitsOutput] = reportFunction("getNodeHits");
/** Live-zone connections per day. */
export const [getConnectionStats, getConnectionStatsOutput] = reportFunction("getConnectionStats");
/** Live-zone connections per hour of one day. */
export const [getHourlyConnectionStats, getHourlyConnectionStatsOutput] = reportFunction("getHourlyConnectionStats");
