/**
 * The report functions: camelCase arguments, `Date` or `Y-m-d` dates, a named `type` for the
 * totals, `companyId` from the stack when omitted, paging with `allPages`, and typed camelCase rows.
 */
import * as pulumi from "@pulumi/pulumi";
import { CdnProtocolError, CdnValidationError } from "../api/errors";
import { asId, idProblem } from "../api/ids";
import { findMethod, type ParamSpec } from "../api/methods";
import type { ReportName } from "../api/reportShapes";
import { camelRow, checkArgs, intArg, reportType, sortByArg, stringArg } from "./args";
import { clientFor, companyIdFor, FunctionOptions, FunctionOutputOptions } from "./connection";
import { outputForm } from "./outputForm";
import { mockablePair } from "./mocks";
import { Page, pager, PAGING_ARGS } from "./paging";
import type {
  GetTotalHitsResult,
  GetTotalsArgs,
  GetTotalTransferResult,
  Inputs,
  ReportArgsOf,
  ReportResultOf,
  ReportRowOf,
} from "./report-types";

/** A report's answer: rows, or one bare number. */
type Answer = Record<string, unknown>[] | number;
/** A report method called with parameters this module checked by name (the client checks them again, once: encode.ts). */
type ByName = (params: Record<string, unknown>) => Promise<unknown>;

/** A function and its Output form, made mockable (mocks.ts). */
function functionPair<A, R>(fn: string, call: (args: A, opts?: FunctionOptions) => Promise<R>) {
  const output = (args: Inputs<A>, opts?: FunctionOutputOptions): pulumi.Output<R> => outputForm(call, args, opts);
  return mockablePair(fn, call, output);
}

/**
 * getTotalTransfer / getTotalHits: `figure` is the bare number the server sent (also as `total`), else the sum of the
 * rows' column: undefined for no rows (no data is not 0), an error naming the columns sent when a row lacks it.
 */
const totals = <R>(fn: "getTotalTransfer" | "getTotalHits", figure: "transfer" | "hits") =>
  functionPair(fn, async (args: GetTotalsArgs, opts?: FunctionOptions): Promise<R> => {
    const a = checkArgs(fn, args, ["zoneId", "type", "from", "to", "timezone"]);
    const zoneId = intArg(fn, "zoneId", a.zoneId, true)!;
    const type = reportType(fn, a.type, (a.from ?? a.to) != null);
    const timezone = stringArg(fn, "timezone", a.timezone);
    // Dates, their order and a range's two ends are the client's to check (encode.ts), once.
    const byName = { zoneId, type, from: a.from, to: a.to, timezone };
    const answer = (await (clientFor(opts).report[fn] as ByName)(byName)) as Answer;
    const total = typeof answer === "number" ? answer : undefined;
    const rows = typeof answer === "number" ? [] : answer;
    let sum: number | undefined;
    for (const r of rows) {
      if (typeof r[figure] !== "number") {
        const columns = Object.keys(r).filter((k) => r[k] !== undefined);
        throw new CdnProtocolError(
          `the rows carry no '${figure}' figure (columns sent: ${columns.join(", ") || "none"}), so the total is unknown`,
          `report.${fn}`,
        );
      }
      sum = (sum ?? 0) + (r[figure] as number);
    }
    const result = { zoneId, [figure]: total ?? sum, hasData: total !== undefined || rows.length > 0 };
    return { ...result, rows: rows.map((r) => camelRow(r)), ...(total === undefined ? {} : { total }) } as unknown as R;
  });

/** Bytes served by a zone today so far, in the current hour, or over a date range. */
export const [getTotalTransfer, getTotalTransferOutput] = totals<GetTotalTransferResult>(
  "getTotalTransfer",
  "transfer",
);
/** Requests served by a zone today so far, in the current hour, or over a date range. */
export const [getTotalHits, getTotalHitsOutput] = totals<GetTotalHitsResult>("getTotalHits", "hits");

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

/** A report over its table entry's parameters (module doc); a bare number the server sent is `total`, rows empty. */
async function report<R extends RangeName>(fn: R, args: ReportArgsOf<R>, opts?: FunctionOptions) {
  const own = findMethod(`report.${fn}`)!.params.filter((p) => !PAGED.has(p.name));
  const a = checkArgs(fn, args, [...own.map(argName), ...PAGING_ARGS]);
  const wire: Record<string, unknown> = {};
  // sortBy entries renamed to wire columns, text checked for control characters; the client checks the rest, once.
  for (const p of own) {
    const v = a[argName(p)];
    if (p.name !== "companyId")
      wire[p.name] = p.type === "sortby" ? sortByArg(fn, v) : p.type === "string" ? stringArg(fn, argName(p), v) : v;
  }
  const fetchAll = pager(fn, a);
  wire.companyId = companyIdFor(opts, companyArg(fn, a.companyId));
  const client = clientFor(opts);
  let total: number | undefined;
  const rows = await fetchAll(async (page: Page) => {
    const answer = (await (client.report[fn] as ByName)({ ...wire, ...page })) as Answer;
    if (typeof answer !== "number") return answer;
    total = answer;
    return [];
  });
  const result = { rows: rows.map((r) => camelRow<ReportRowOf<R>>(r)) };
  return (total === undefined ? result : { ...result, total }) as ReportResultOf<R>;
}

/** Report `fn`'s function pair: the one line a new report needs here, besides its method table entry and emulator rows. */
const reportFunction = <R extends RangeName>(fn: R) =>
  functionPair(fn, (args: ReportArgsOf<R>, opts?: FunctionOptions) => report(fn, args, opts));

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
