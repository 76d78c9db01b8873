/** Deterministic traffic: each figure a hash of (zone id, UTC hour) or (zone id, file or node, range), sums of hours. */
import { HOUR_MS } from "./calendar";

/** A 32-bit unsigned hash of three integers (murmur3-style finalizer). */
export function hash32(a: number, b: number, c: number): number {
  let h =
    Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul((b + 0x7f4a7c15) | 0, 0xc2b2ae35) ^ Math.imul(c | 0, 0x27d4eb2f);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Traffic over some hours; byte counts can exceed 2^31, so they go on the wire as doubles. */
export type Metrics = Record<"hits" | "transfer" | "cacheHits" | "connections" | "peakConcurrent", number>;

/** The traffic of zone `zoneId` during `count` hours starting at epoch ms `startMs`. */
export function hoursMetrics(zoneId: number, startMs: number, count: number): Metrics {
  const m: Metrics = { hits: 0, transfer: 0, cacheHits: 0, connections: 0, peakConcurrent: 0 };
  const first = Math.floor(startMs / HOUR_MS);
  for (let hour = first; hour < first + count; hour++) {
    const hits = 40 + (hash32(zoneId, hour, 1) % 960);
    m.hits += hits;
    m.transfer += hits * (8_000 + (hash32(zoneId, hour, 2) % 120_000));
    m.cacheHits += Math.floor((hits * (700 + (hash32(zoneId, hour, 3) % 300))) / 1000);
    const connections = 5 + (hash32(zoneId, hour, 4) % 200);
    m.connections += connections;
    const peak = 1 + Math.floor((connections * (10 + (hash32(zoneId, hour, 5) % 40))) / 100);
    m.peakConcurrent = Math.max(m.peakConcurrent, peak);
  }
  return m;
}

/** cache_hits / hits rounded to four decimals (0 without hits). */
export function hitRatio(m: Metrics): number {
  return m.hits === 0 ? 0 : Math.round((m.cacheHits / m.hits) * 10_000) / 10_000;
}

/** Files each zone serves in getPopularFiles: 4 zones give a 10,000-row report. */
export const FILES_PER_ZONE = 2_500;
const EXTENSIONS = ["js", "css", "png", "jpg", "mp4", "html", "json", "woff2"] as const;

/** The path of a zone's k-th file. */
export function filePath(zoneId: number, k: number): string {
  return `/assets/${zoneId}/file-${String(k).padStart(4, "0")}.${EXTENSIONS[hash32(zoneId, k, 6) % EXTENSIONS.length]}`;
}

/** Hits and bytes of a zone's k-th file over `days` days from `firstDay`: Zipf-like, together below the zone's own. */
export function fileTraffic(zoneId: number, k: number, firstDay: number, days: number) {
  const daily = Math.floor(900 / (k + 1)) + (hash32(zoneId, k, 7) % 2);
  const hits = daily * days + (hash32(zoneId, k, firstDay * 4099 + days) % (days + 1));
  const size = 2_000 + (hash32(zoneId, k, 9) % 100_000);
  return { hits, transfer: hits * size };
}

/** Edge nodes of getNodeHits. */
export const NODES = "lax01 sjc01 sea01 dfw01 ord01 iad01 jfk01 lhr01 fra01 ams01 nrt01 sin01".split(" ");

/** Splits a zone's traffic over NODES by fixed per-zone weights; the parts add up to the whole. */
export function nodeShares(zoneId: number, total: Metrics): { node: string; hits: number; transfer: number }[] {
  const weights = NODES.map((_, i) => 1 + (hash32(zoneId, i, 11) % 100));
  const sum = weights.reduce((a, b) => a + b, 0);
  const rows = NODES.map((node, i) => ({
    node,
    hits: Math.floor((total.hits * weights[i]) / sum),
    transfer: Math.floor((total.transfer * weights[i]) / sum),
  }));
  rows[0].hits += total.hits - rows.reduce((a, r) => a + r.hits, 0);
  rows[0].transfer += total.transfer - rows.reduce((a, r) => a + r.transfer, 0);
  return rows;
}
