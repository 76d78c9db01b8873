/**
 * The `rollup` compatibility profile: account-wide reports summed into one row per key (`zone_id` 0), bandwidth under
 * `*_bandwidth` names as text. Nothing public shows either, but the client must read them: the table of what it does
 * is in docs/emulator.md, "Compatibility profiles".
 */
import type { Args } from "./params";
import { Double, isStruct, type WireOut, type WireStruct as Struct } from "../api/xmlrpc";

const numeric = (v: WireOut): v is number | Double => typeof v === "number" || v instanceof Double;
/** A number or a Double as a number; anything else 0. */
export const numberOf = (v: WireOut): number => (typeof v === "number" ? v : v instanceof Double ? v.value : 0);
/** A figure as text, as servers that build answers from database rows send it. */
export const figureText = (v: WireOut): WireOut => (numeric(v) ? String(numberOf(v)) : v);

/** Rows of several zones as one row per key: figures summed (`peak_concurrent` the largest), `zone_id` 0. */
function summed(rows: readonly WireOut[]): WireOut[] {
  const byKey = new Map<string, Record<string, WireOut>>();
  for (const row of rows) {
    if (!isStruct(row)) return [...rows];
    const key = JSON.stringify(Object.entries(row).filter(([k, v]) => k !== "zone_id" && !numeric(v)));
    const into = byKey.get(key);
    if (!into) {
      byKey.set(key, { ...row, zone_id: 0 });
      continue;
    }
    for (const [k, v] of Object.entries(row)) {
      if (k === "zone_id" || !numeric(v)) continue;
      const total =
        k === "peak_concurrent" ? Math.max(numberOf(into[k]), numberOf(v)) : numberOf(into[k]) + numberOf(v);
      into[k] = v instanceof Double ? new Double(total) : total;
    }
  }
  const out = [...byKey.values()];
  for (const row of out.filter((r) => "cache_hit_ratio" in r))
    row.cache_hit_ratio = new Double(numberOf(row.hits) > 0 ? numberOf(row.cache_hits) / numberOf(row.hits) : 0);
  return out;
}

/** The rollup profile's answer to one call (its request is not reshaped). */
export function rollupAnswer(method: string, value: WireOut, args: Args = {}): WireOut {
  const [group, name] = method.split(".");
  if (method === "account.getBandwidth" && Array.isArray(value) && isStruct(value[0])) {
    const row = value[0] as Struct;
    return {
      date_from: row.from,
      date_to: row.to,
      prepaid_bandwidth: figureText(row.prepaid),
      used_bandwidth: figureText(row.used),
      remaining_bandwidth: figureText(row.remaining),
    };
  }
  // Every report row carries `zone_id`; a report asked without a zone (its zoneId is optional) is account-wide.
  if (group !== "report" || !Array.isArray(value) || args.zoneId !== undefined) return value;
  if (name === "getPopularFiles")
    return value.map((row) => {
      if (!isStruct(row)) return row;
      const { zone_id: _zone, ...rest } = row;
      return rest;
    });
  return summed(value);
}
