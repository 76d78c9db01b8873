/**
 * Builds the rows of each report from zones and local days. Columns are exactly
 * REPORT_COLUMNS (api/reportShapes.ts, from the method table), in that order; values come from series.ts.
 */
import type { Zone } from "luxon";
import type { StoredZone } from "../store/store";
import { HOUR_MS, hourLabel, type LocalDay } from "./calendar";
import type { Row } from "./rows";
import {
  FILES_PER_ZONE,
  addHours,
  emptyMetrics,
  fileTraffic,
  filePath,
  hitRatio,
  hoursMetrics,
  nodeShares,
} from "./series";

type ZoneRef = Pick<StoredZone, "id">;

/** getTotalTransferStats rows per period and zone; `date` is `Y-m-d HH:00`, `Y-m-d` or `Y-m`. */
export function transferStats(zones: readonly ZoneRef[], days: readonly LocalDay[], viewby: string, tz: Zone): Row[] {
  const rows: Row[] = [];
  if (viewby === "hourly") {
    for (const day of days) {
      for (let h = 0; h < day.hours; h++) {
        const date = hourLabel(day, h, tz);
        for (const z of zones) {
          const m = hoursMetrics(z.id, day.startMs + h * HOUR_MS, 1);
          rows.push({ date, zone_id: z.id, transfer: m.transfer, hits: m.hits });
        }
      }
    }
    return rows;
  }
  const periods = new Map<string, LocalDay[]>();
  for (const day of days) {
    const key = viewby === "monthly" ? day.date.slice(0, 7) : day.date;
    let list = periods.get(key);
    if (!list) periods.set(key, (list = []));
    list.push(day);
  }
  for (const [date, periodDays] of periods) {
    for (const z of zones) {
      const m = emptyMetrics();
      for (const day of periodDays) addHours(m, z.id, day.startMs, day.hours);
      rows.push({ date, zone_id: z.id, transfer: m.transfer, hits: m.hits });
    }
  }
  return rows;
}

/** getUsagePerDay rows: one per day for one zone. */
export function usagePerDay(zone: ZoneRef, days: readonly LocalDay[]): Row[] {
  return days.map((day) => {
    const m = hoursMetrics(zone.id, day.startMs, day.hours);
    return { date: day.date, zone_id: zone.id, transfer: m.transfer, hits: m.hits };
  });
}

/** getCacheHitStats rows: one per day and zone. */
export function cacheHitStats(zones: readonly ZoneRef[], days: readonly LocalDay[]): Row[] {
  const rows: Row[] = [];
  for (const day of days) {
    for (const z of zones) {
      const m = hoursMetrics(z.id, day.startMs, day.hours);
      rows.push({
        date: day.date,
        zone_id: z.id,
        hits: m.hits,
        cache_hits: m.cacheHits,
        cache_misses: m.hits - m.cacheHits,
        cache_hit_ratio: hitRatio(m),
      });
    }
  }
  return rows;
}

/** getPopularFiles rows: FILES_PER_ZONE files per zone, at `http://<host><path>`. */
export function popularFiles(
  zones: readonly { id: number; host: string }[],
  firstDay: number,
  dayCount: number,
): Row[] {
  const rows: Row[] = [];
  for (const z of zones) {
    const base = `http://${z.host}`;
    for (let k = 0; k < FILES_PER_ZONE; k++) {
      const t = fileTraffic(z.id, k, firstDay, dayCount);
      rows.push({ zone_id: z.id, url: base + filePath(z.id, k), hits: t.hits, transfer: t.transfer });
    }
  }
  return rows;
}

/** getNodeHits rows: each zone's traffic over the range, split over the edge nodes. */
export function nodeHits(zones: readonly ZoneRef[], days: readonly LocalDay[]): Row[] {
  const rows: Row[] = [];
  for (const z of zones) {
    const total = emptyMetrics();
    for (const day of days) addHours(total, z.id, day.startMs, day.hours);
    for (const share of nodeShares(z.id, total))
      rows.push({ node: share.node, zone_id: z.id, hits: share.hits, transfer: share.transfer });
  }
  return rows;
}

/** getConnectionStats rows: one per day and live zone; peak_concurrent is the day's highest hour. */
export function connectionStats(zones: readonly ZoneRef[], days: readonly LocalDay[]): Row[] {
  const rows: Row[] = [];
  for (const day of days) {
    for (const z of zones) {
      const m = hoursMetrics(z.id, day.startMs, day.hours);
      rows.push({ date: day.date, zone_id: z.id, connections: m.connections, peak_concurrent: m.peakConcurrent });
    }
  }
  return rows;
}

/** getHourlyConnectionStats rows: one per local hour of `day` and live zone. */
export function hourlyConnectionStats(zones: readonly ZoneRef[], day: LocalDay, tz: Zone): Row[] {
  const rows: Row[] = [];
  for (let h = 0; h < day.hours; h++) {
    const hour = hourLabel(day, h, tz);
    for (const z of zones) {
      const m = hoursMetrics(z.id, day.startMs + h * HOUR_MS, 1);
      rows.push({ hour, zone_id: z.id, connections: m.connections, peak_concurrent: m.peakConcurrent });
    }
  }
  return rows;
}

/** Total transfer and hits of all `zones` over `days`, for account.getBandwidth. */
export function totalTransfer(zones: readonly ZoneRef[], days: readonly LocalDay[]): number {
  const m = emptyMetrics();
  for (const z of zones) for (const day of days) addHours(m, z.id, day.startMs, day.hours);
  return m.transfer;
}
