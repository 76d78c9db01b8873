/**
 * Compatibility profiles: the same account answering in another plausible shape, so the tests prove the client reads
 * every shape the contract leaves open. What each profile answers, with its evidence: docs/emulator.md, "Compatibility
 * profiles". A profile reshapes only answers (and a request's sortby names and empty update values), after the handler
 * ran, so the store, the checks and the faults stay the emulator's own.
 */
import { DateTime } from "luxon";
import { AUTH_TIME_ZONE } from "../api/auth";
import { INT32_MAX } from "../api/ids";
import { kindOfGroup } from "../api/kinds";
import { findMethod } from "../api/methods";
import { REPORT_COLUMN_SOURCES } from "../api/wire";
import { ZONE_KIND_TABLE } from "../api/zoneKinds";
import { isReportName, type ColumnOf, type MayAnswerTotal, type ReportName } from "../api/reportShapes";
import { RpcFault } from "./errors";
import type { Args } from "./params";
import { DateTimeText, Double, I8, isStruct, type WireOut, type WireValue } from "../api/xmlrpc";

/** The profiles `startEmulator({ compat })` and `cdn-emulator --compat` accept. */
export const COMPAT_PROFILES = ["default", "legacy", "rollup"] as const;
export type CompatProfile = (typeof COMPAT_PROFILES)[number];

/** How a profile reshapes one call: its parameters before the handler runs, its answer after. */
export interface Compat {
  /** The call's parameters as the profile's service reads them (report column names, legacy's empty update values). */
  request(method: string, params: readonly WireValue[]): readonly WireValue[];
  /** The answer in the profile's shape (`args`: the call's checked parameters); throws the RpcFault it answers with. */
  answer(method: string, value: WireOut, args?: Args): WireOut;
}

const numeric = (v: WireOut): v is number | Double => typeof v === "number" || v instanceof Double;
/** A number or a Double as a number; anything else 0. */
const numberOf = (v: WireOut): number => (typeof v === "number" ? v : v instanceof Double ? v.value : 0);
/** A figure as text, as servers that build answers from database rows send it; anything else as it is. */
const figureText = (v: WireOut): WireOut => (numeric(v) ? String(numberOf(v)) : v);

/** Columns under the later REST API's names (docs/emulator.md): each one's second in api/wire.ts, not from/to's. */
const LEGACY_COLUMNS: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(REPORT_COLUMN_SOURCES).flatMap(([k, { columns }]) =>
    k === "from" || k === "to" ? [] : columns.slice(1, 2).map((legacy) => [k, legacy]),
  ),
);
const FROM_LEGACY: ReadonlyMap<string, string> = new Map(
  Object.entries(LEGACY_COLUMNS).flatMap(([k, v]): [string, string][] => (k === "hour" ? [] : [[v, k]])),
);

/**
 * Reports answered with one bare number (their signature says int, §4.9), and the column summed into it; the type
 * admits only those the method table says may answer a number (the client would refuse any other).
 */
const BARE_INT_REPORTS: { readonly [R in ReportName as MayAnswerTotal<R> extends true ? R : never]?: ColumnOf<R> } = {
  getTotalHits: "hits",
  getCacheHitStats: "cache_hits",
  getUsagePerDay: "hits",
};

const DATE_TEXT = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2})(?::(\d{2})(?::(\d{2}))?)?)?$/;

/** A report's `Y-m-d[ HH[:mm[:ss]]]` as an ISO 8601 dateTime with the Pacific offset; other text unchanged. */
function withOffset(text: string): WireOut {
  const m = DATE_TEXT.exec(text);
  if (!m) return text;
  const t = DateTime.fromObject(
    { year: +m[1], month: +m[2], day: +m[3], hour: +(m[4] ?? 0), minute: +(m[5] ?? 0), second: +(m[6] ?? 0) },
    // Public clients wrote report dates in the zone §5 gives currentDate, with its offset.
    { zone: AUTH_TIME_ZONE },
  );
  return t.isValid ? new DateTimeText(t.toISO({ suppressMilliseconds: true })!) : text;
}

function legacyRow(row: { readonly [key: string]: WireOut }): Record<string, WireOut> {
  const out: Record<string, WireOut> = {};
  for (const [key, value] of Object.entries(row)) {
    const name = LEGACY_COLUMNS[key] ?? key;
    if (key === "zone_id") out[name] = new I8(numberOf(value));
    else if (key === "date" || key === "hour" || key === "from" || key === "to")
      out[name] = typeof value === "string" ? withOffset(value) : value;
    else out[name] = figureText(value);
  }
  return out;
}

/**
 * A user in the original service's shape (the same company's later API named its users' fields so,
 * docs/client.md): the id as text, `firstname` and `lastname` (the full name split at its first
 * space), no `username` or `fullname`.
 */
function legacyUser(row: { readonly [key: string]: WireOut }): Record<string, WireOut> {
  const { id, username: _username, fullname, ...rest } = row;
  const full = typeof fullname === "string" ? fullname : "";
  const space = full.indexOf(" ");
  return {
    id: String(numberOf(id)),
    firstname: space < 0 ? full : full.slice(0, space),
    lastname: space < 0 ? "" : full.slice(space + 1),
    ...rest,
  };
}

function legacyAnswer(method: string, value: WireOut): WireOut {
  const [group, name] = method.split(".");
  const list = Array.isArray(value) ? (value as readonly WireOut[]) : undefined;
  if (name === "create" && list) {
    const [code, result] = list;
    // A failed create as an XML-RPC fault with the §7 code, as one public client read it.
    if (code !== 0) throw new RpcFault(numberOf(code), String(result));
    // A bare struct with a string id, as another public client's expected output showed.
    return isStruct(result) ? { ...result, id: String(numberOf(result.id)) } : result;
  }
  if (name === "listZones" && list) {
    const kind = kindOfGroup(group);
    const onlyId = kind !== undefined && ZONE_KIND_TABLE[kind].rowsMayOmitFields;
    // §2.2 shows no live-zone field but `id`: a kind whose rows may carry only that gets only that.
    return list.map((row) => (isStruct(row) ? { ...(onlyId ? {} : row), id: new I8(numberOf(row.id)) } : row));
  }
  if (group === "cache" && typeof value === "boolean") return value ? 1 : 0;
  if (group === "user" && name === "listUsers" && list)
    return list.map((row) => (isStruct(row) ? legacyUser(row) : row));
  if (method === "account.getBandwidth" && list) {
    // One number, the bytes left, as public clients read it.
    const row = list[0];
    return new Double(isStruct(row) ? numberOf(row.remaining) : 0);
  }
  if (group === "report" && list) {
    const bare = isReportName(name) ? (BARE_INT_REPORTS as Partial<Record<ReportName, string>>)[name] : undefined;
    if (bare) {
      const total = list.reduce<number>((sum, row) => sum + (isStruct(row) ? numberOf(row[bare]) : 0), 0);
      return Math.abs(total) > INT32_MAX ? new I8(Math.round(total)) : Math.round(total); // <int> if it fits, else <i8>
    }
    return list.map((row) => (isStruct(row) ? legacyRow(row) : row));
  }
  return value;
}

/**
 * Parameters beyond the table's are ignored (two public clients sent `pullzone.listZones` a
 * trailing `type`, so the real service accepted one); sortby columns under the legacy names are
 * translated back to the emulator's; a zone update's empty values are dropped.
 */
function legacyRequest(method: string, all: readonly WireValue[]): readonly WireValue[] {
  const spec = findMethod(method);
  const params = spec && all.length > spec.params.length + 3 ? all.slice(0, spec.params.length + 3) : all;
  const [group, name] = method.split(".");
  // A zone update's empty value is ignored (the field keeps its value, the answer is 0), as a PHP service testing
  // `!empty($values[...])` would: nothing public shows how it treated "", and the client must not trust a 0 for it.
  if (name === "update" && kindOfGroup(group))
    return params.map((p) =>
      p.t === "struct" ? { t: "struct", v: new Map([...p.v].filter(([, x]) => !(x.t === "string" && x.v === ""))) } : p,
    );
  if (!method.startsWith("report.")) return params;
  const renamed = (item: WireValue): WireValue => {
    const m = item.t === "string" ? /^\s*(\S+)(\s+.*)$/.exec(item.v) : null;
    const ours = m && FROM_LEGACY.get(m[1]);
    return m && ours ? { t: "string", v: `${ours}${m[2]}` } : item;
  };
  return params.map((p) => (p.t === "array" ? { t: "array", v: p.v.map(renamed) } : p));
}

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

/**
 * The `rollup` profile's answer: account-wide reports summed into one row per key (`zone_id` 0), bandwidth under
 * `*_bandwidth` names as text. Nothing public shows either, but the client must read them (its request is as sent).
 */
function rollupAnswer(method: string, value: WireOut, args: Args = {}): WireOut {
  const [group, name] = method.split(".");
  if (method === "account.getBandwidth" && Array.isArray(value) && isStruct(value[0])) {
    const row = value[0];
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
    return value.map((row) =>
      isStruct(row) ? Object.fromEntries(Object.entries(row).filter(([k]) => k !== "zone_id")) : row,
    );
  return summed(value);
}

/** Each profile's reshaping (the name is checked by resolveOptions). */
export const COMPAT: { readonly [P in CompatProfile]: Compat } = {
  default: { request: (_m, p) => p, answer: (_m, v) => v },
  legacy: { request: legacyRequest, answer: legacyAnswer },
  rollup: { request: (_m, p) => p, answer: rollupAnswer },
};
