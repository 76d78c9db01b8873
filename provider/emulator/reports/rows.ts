/** Sorting, paging and wire conversion of report rows. */
import type { SortKey } from "../params";
import { Double, type WireOut } from "../../api/xmlrpc";

export type Row = Record<string, string | number>;

/** Fields sent as `<double>`: byte counts and ratios (the number columns of api/wire.ts REPORT_COLUMN_SOURCES). */
const DOUBLE_FIELDS: ReadonlySet<string> = new Set(["transfer", "cache_hit_ratio", "prepaid", "used", "remaining"]);

/** Most rows a report may build before paging; a larger request gets INVALID_PARAMS. */
export const MAX_REPORT_ROWS = 250_000;

/** Stable multi-column sort (V8's sort is stable, so ties keep generation order). */
export function sortRows<T extends Row>(rows: T[], keys: readonly SortKey[]): T[] {
  if (keys.length === 0) return rows;
  return rows.sort((a, b) => {
    for (const { column, desc } of keys) {
      const x = a[column];
      const y = b[column];
      if (x === y) continue;
      const cmp = x < y ? -1 : 1;
      return desc ? -cmp : cmp;
    }
    return 0;
  });
}

/** Applies `offset` then `maxReturn` (absent: no limit). */
export function page<T>(rows: T[], offset: number | undefined, maxReturn: number | undefined): T[] {
  const start = offset ?? 0;
  return maxReturn === undefined ? rows.slice(start) : rows.slice(start, start + maxReturn);
}

/** A row with its byte counts and ratios wrapped as doubles. */
export function toWire(row: Row): Record<string, WireOut> {
  const out: Record<string, WireOut> = {};
  for (const key of Object.keys(row)) {
    const value = row[key];
    out[key] = typeof value === "number" && DOUBLE_FIELDS.has(key) ? new Double(value) : value;
  }
  return out;
}
