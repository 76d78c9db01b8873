/**
 * report.*: interprets the parameters (type, ranges, time zone, zone, paging) and builds rows
 * with reports/build.ts. Rules where the document is silent are in docs/emulator.md.
 */
import type { Zone } from "luxon";
import { kindInfo, ZONE_KINDS } from "../../api/kinds";
import { VIEWBY } from "../../api/wire";
import { Faults } from "../errors";
import type { ArgsOf } from "../args";
import type { SortKey } from "../params";
import { GMT, HOUR_MS, dayNumber, localDays, localNow, rangeDays, timeZone } from "../reports/calendar";
import * as build from "../reports/build";
import { MAX_REPORT_ROWS, page, sortRows, toWire, type Row } from "../reports/rows";
import { FILES_PER_ZONE, NODES, hoursMetrics } from "../reports/series";
import type { StoredZone } from "../store/store";
import type { WireOut } from "../../api/xmlrpc";
import type { HandlerContext, HandlersOf } from "./context";
import { cdnHost } from "./zone-rules";

/** A period report's arguments; the helpers below read a part of them (`Partial`) that every report's ArgsOf has. */
type PeriodArgs = ArgsOf<"report.getConnectionStats">;
type TotalsArgs = ArgsOf<"report.getTotalTransfer"> | ArgsOf<"report.getTotalHits">;

function tzOf(args: Partial<PeriodArgs>): { name: string; zone: Zone } {
  const name = args.timezone ?? "GMT";
  const zone = timeZone(name);
  if (!zone) throw Faults.invalidParams(`timezone '${name.slice(0, 60)}' is not an IANA time zone name or GMT`);
  return { name, zone };
}

/** The groups whose zones stream, so have connection statistics (§5): the live-only kinds' (§4.5). */
const STREAMING = new Set(ZONE_KINDS.filter((k) => kindInfo(k).liveOnly).map((k) => kindInfo(k).group));

/** The zones a report covers: the one named by zoneId (NOT_FOUND if unknown) or all of them; `streaming`: of STREAMING. */
function reportZones(ctx: HandlerContext, zoneId: number | undefined, streaming: boolean): Readonly<StoredZone>[] {
  const covered = (z: Readonly<StoredZone>) => !streaming || STREAMING.has(z.kind);
  if (zoneId === undefined) return ctx.store.allZones().filter(covered);
  const zone = ctx.store.zone(zoneId);
  if (!zone) throw Faults.notFound(`zone ${zoneId}`);
  if (!covered(zone)) throw Faults.notFound(`live zone ${zoneId} (zone ${zoneId} is a ${zone.kind})`);
  return [zone];
}

function guardSize(rows: number): void {
  if (rows > MAX_REPORT_ROWS)
    throw Faults.invalidParams(
      `the report would have ${rows} rows, above the emulator's limit of ${MAX_REPORT_ROWS}; narrow the range or name a zone`,
    );
}

/** Sorts (by `sortby`, else `fallback`), pages and converts rows for the wire. */
function finish(rows: Row[], args: Partial<PeriodArgs>, fallback: readonly SortKey[] = []): WireOut {
  const { maxReturn, offset, sortby } = args;
  if (maxReturn !== undefined && maxReturn < 1)
    throw Faults.invalidParams("maxReturn must be at least 1 (omit it or send nil for no limit)");
  if (offset !== undefined && offset < 0) throw Faults.invalidParams("offset must not be negative");
  const keys = sortby && sortby.length > 0 ? sortby : fallback;
  return page(sortRows(rows, keys), offset, maxReturn).map(toWire);
}

/** The window of getTotalTransfer / getTotalHits: `type` 1 today so far, 2 this hour, 3 a range. */
function totalWindow(ctx: HandlerContext, args: TotalsArgs, zone: Zone) {
  const { from, to, type: given } = args;
  if (given !== undefined && ![1, 2, 3].includes(given))
    throw Faults.invalidParams("type must be 1 (today), 2 (this hour) or 3 (date range)");
  if (given === undefined && (from === undefined) !== (to === undefined))
    throw Faults.invalidParams("from and to go together (or send type 1 or 2)");
  const type = given ?? (from !== undefined ? 3 : 1);
  if (type === 3) {
    if (from === undefined || to === undefined) throw Faults.invalidParams("type 3 (date range) needs from and to");
    return { from: `${from} 00:00:00`, to: `${to} 23:59:59`, spans: rangeDays(from, to, zone, ["from", "to"]) };
  }
  const now = ctx.now();
  const today = localNow(now, zone);
  const [day] = localDays(today.date, today.date, zone);
  const index = Math.min(day.hours - 1, Math.floor((now - day.startMs) / HOUR_MS));
  const hh = String(today.hour).padStart(2, "0");
  const hour = type === 2;
  return {
    from: `${today.date} ${hour ? hh : "00"}:00:00`,
    to: `${today.date} ${hh}:59:59`,
    spans: [hour ? { startMs: day.startMs + index * HOUR_MS, hours: 1 } : { startMs: day.startMs, hours: index + 1 }],
  };
}

function totals(ctx: HandlerContext, args: TotalsArgs, field: "transfer" | "hits"): WireOut {
  const [zone] = reportZones(ctx, args.zoneId, false);
  const tz = tzOf(args);
  const window = totalWindow(ctx, args, tz.zone);
  const sum = window.spans.reduce((n, span) => n + hoursMetrics(zone.id, span.startMs, span.hours)[field], 0);
  return [toWire({ zone_id: zone.id, from: window.from, to: window.to, timezone: tz.name, [field]: sum })];
}

/** A report of one row per period (`by`: hourly, daily or monthly) and zone, each made by `row` (reports/build.ts). */
function periodReport(ctx: HandlerContext, args: PeriodArgs, by: string, row: build.PeriodRow, streaming = false) {
  const tz = tzOf(args);
  const zones = reportZones(ctx, args.zoneId, streaming);
  const days = rangeDays(args.dateFrom, args.dateTo, tz.zone);
  guardSize(days.length * (by === "hourly" ? 25 : 1) * zones.length);
  return finish(build.periodRows(zones, days, by, tz.zone, row), args);
}

export const reportHandlers: HandlersOf<"report"> = {
  "report.getTotalTransfer": (ctx, args) => totals(ctx, args, "transfer"),
  "report.getTotalHits": (ctx, args) => totals(ctx, args, "hits"),

  "report.getTotalTransferStats": (ctx, args) => {
    const given = args.viewby ?? "daily";
    const viewby = VIEWBY.find((v) => v === given);
    if (viewby === undefined) throw Faults.invalidParams(`viewby must be one of ${VIEWBY.join(", ")}`);
    return periodReport(ctx, args, viewby, build.transferRow);
  },
  "report.getCacheHitStats": (ctx, args) => periodReport(ctx, args, "daily", build.cacheHitRow),
  "report.getUsagePerDay": (ctx, args) => periodReport(ctx, args, "daily", build.transferRow),
  "report.getConnectionStats": (ctx, args) => periodReport(ctx, args, "daily", build.connectionRow("date"), true),

  "report.getPopularFiles": (ctx, args) => {
    const zones = reportZones(ctx, args.zoneId, false);
    const dayCount = rangeDays(args.dateFrom, args.dateTo, GMT).length;
    guardSize(zones.length * FILES_PER_ZONE);
    const hosts = zones.map((z) => ({ id: z.id, host: cdnHost(z.name, ctx.account) }));
    const rows = build.popularFiles(hosts, dayNumber(args.dateFrom), dayCount);
    return finish(rows, args, [{ column: "hits", desc: true }]);
  },

  "report.getNodeHits": (ctx, args) => {
    const zones = reportZones(ctx, args.zoneId, false);
    const days = rangeDays(args.dateFrom, args.dateTo, GMT);
    guardSize(zones.length * NODES.length);
    return finish(build.nodeHits(zones, days), args);
  },

  "report.getHourlyConnectionStats": (ctx, args) => {
    const tz = tzOf(args);
    const zones = reportZones(ctx, args.zoneId, true);
    const days = localDays(args.date, args.date, tz.zone);
    return finish(build.periodRows(zones, days, "hourly", tz.zone, build.connectionRow("hour")), args);
  },
};
