/** The rows of each report from zones and local days: the columns of REPORT_COLUMNS, values from series.ts. */
import type { Zone } from "luxon";
import type { StoredZone } from "../store/store";
import { HOUR_MS, hourLabel, type LocalDay } from "./calendar";
import type { Row } from "./rows";
import { FILES_PER_ZONE, fileTraffic, filePath, hitRatio, hoursMetrics, nodeShares, type Metrics } from "./series";

type ZoneRef = Pick<StoredZone, "id">;
/** A run of local hours a row covers, and its label (`Y-m-d HH:00`, `Y-m-d` or `Y-m`). */
type Period = { readonly label: string; readonly startMs: number; readonly hours: number };

/** Each local hour, day or month of `days`; a month is one run of hours, as the days follow each other. */
function periodsOf(days: readonly LocalDay[], by: string, tz: Zone): Period[] {
  if (by === "hourly")
    return days.flatMap((day) =>
      Array.from({ length: day.hours }, (_, h) => ({
        label: hourLabel(day, h, tz),
        startMs: day.startMs + h * HOUR_MS,
        hours: 1,
      })),
    );
  const out: Period[] = [];
  for (const day of days) {
    const label = by === "monthly" ? day.date.slice(0, 7) : day.date;
    const last = out[out.length - 1];
    if (last?.label === label) out[out.length - 1] = { ...last, hours: last.hours + day.hours };
    else out.push({ label, startMs: day.startMs, hours: day.hours });
  }
  return out;
}

/** A row of a period report from the period's label, a zone id and the zone's traffic in the period. */
export type PeriodRow = (label: string, zone_id: number, m: Metrics) => Row;

/** One row per period (`by`) of `days` and zone, periods outermost. */
export function periodRows(zones: readonly ZoneRef[], days: readonly LocalDay[], by: string, tz: Zone, row: PeriodRow) {
  return periodsOf(days, by, tz).flatMap((p) =>
    zones.map((z) => row(p.label, z.id, hoursMetrics(z.id, p.startMs, p.hours))),
  );
}

/** getTotalTransferStats and getUsagePerDay rows. */
export const transferRow: PeriodRow = (date, zone_id, m) => ({ date, zone_id, transfer: m.transfer, hits: m.hits });
/** getCacheHitStats rows. */
export const cacheHitRow: PeriodRow = (date, zone_id, m) => ({
  date,
  zone_id,
  hits: m.hits,
  cache_hits: m.cacheHits,
  cache_misses: m.hits - m.cacheHits,
  cache_hit_ratio: hitRatio(m),
});
/** getConnectionStats (by date) and getHourlyConnectionStats (by hour) rows; peak_concurrent is the period's highest hour. */
export const connectionRow =
  (key: "date" | "hour"): PeriodRow =>
  (label, zone_id, m) => ({ [key]: label, zone_id, connections: m.connections, peak_concurrent: m.peakConcurrent });

/** getPopularFiles rows: FILES_PER_ZONE files per zone, at `http://<host><path>`. */
export function popularFiles(zones: readonly { id: number; host: string }[], firstDay: number, days: number): Row[] {
  return zones.flatMap((z) =>
    Array.from({ length: FILES_PER_ZONE }, (_, k) => {
      const t = fileTraffic(z.id, k, firstDay, days);
      return { zone_id: z.id, url: `http://${z.host}${filePath(z.id, k)}`, hits: t.hits, transfer: t.transfer };
    }),
  );
}

/** The traffic of a zone over the whole of `days`. */
const total = (id: number, days: readonly LocalDay[]) =>
  hoursMetrics(
    id,
    days[0]?.startMs ?? 0,
    days.reduce((n, d) => n + d.hours, 0),
  );

/** getNodeHits rows: each zone's traffic over the range, split over the edge nodes. */
export function nodeHits(zones: readonly ZoneRef[], days: readonly LocalDay[]): Row[] {
  return zones.flatMap((z) =>
    nodeShares(z.id, total(z.id, days)).map(({ node, hits, transfer }) => ({ node, zone_id: z.id, hits, transfer })),
  );
}

/** Total transfer of all `zones` over `days`, for account.getBandwidth. */
export function totalTransfer(zones: readonly ZoneRef[], days: readonly LocalDay[]): number {
  return zones.reduce((sum, z) => sum + total(z.id, days).transfer, 0);
}
