/**
 * Turns answers into JSON-safe, typed values. The contract leaves most answers open (docs/client.md), so every
 * plausible shape is accepted; an answer that fits none is a protocol error naming the method.
 */
import { CdnProtocolError } from "./errors";
import { asId, idProblem } from "./ids";
import { DateGrain, reportDate } from "./dates";
import type { MethodSpec } from "./methods";
import { LIVE_URL_COLUMNS, REPORT_COLUMN_SOURCES, USER_TEXT_FIELDS } from "./wire";
import { defineData } from "./xmlrpc";

type Row = Record<string, unknown>;

/** Makes a decoded value JSON-safe (its dates and base64 are text: docs/client.md): non-finite numbers to null. */
export function jsonSafe(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v && typeof v === "object") {
    const out: Row = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) defineData(out, k, jsonSafe(x));
    return out;
  }
  if (typeof v === "number" && !Number.isFinite(v)) return null;
  return v === undefined ? null : v;
}

function isStruct(v: unknown): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What a wrong value is, for messages: `missing`, `nil`, `an array`, `a struct`, or its `typeof`. */
export function kindOf(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "nil";
  if (Array.isArray(v)) return "an array";
  if (isStruct(v)) return "a struct";
  return typeof v;
}

const INT_TEXT = /^\s*[+-]?\d+\s*$/;
const NUMBER_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/** An id sent as int, i8 or numeric text, as a number; anything not an id by ids.ts's rule is a protocol error. */
function toId(v: unknown, method: string, what = "the id"): number {
  const id = asId(v);
  if (id === undefined) throw new CdnProtocolError(idProblem(v, what)!, method);
  return id;
}

/** Text that says a double is not a number, as Python (`nan`, `inf`) and others write it. */
const NON_FINITE_TEXT = /^\s*[+-]?(?:nan|inf(?:inity)?)\s*$/i;
/** Whether `v` is one bare figure: a number, or text that writes one. */
const isFigure = (v: unknown) =>
  typeof v === "number" || (typeof v === "string" && (NUMBER_TEXT.test(v) || NON_FINITE_TEXT.test(v)));

/**
 * A figure sent as int, i8, double or numeric text; undefined for nil, "" or missing. NaN, an infinity, a negative
 * count (a `balance` may be negative) and a magnitude beyond 2^53 are malformed: the error names the field.
 */
function toFigure(
  v: unknown,
  field: string,
  method: string,
  { sign = "count", where = "" }: { sign?: "count" | "balance"; where?: string } = {},
): number | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  const named = `field '${field}'${where ? ` ${where}` : ""}`;
  let n: number;
  if (typeof v === "number") n = v;
  else if (typeof v === "boolean") return v ? 1 : 0;
  else if (typeof v === "string" && NUMBER_TEXT.test(v)) {
    n = Number(v);
    if (INT_TEXT.test(v) && !Number.isSafeInteger(n))
      throw new CdnProtocolError(`${named} (${v.trim()}) is beyond 2^53 and cannot be kept exactly`, method);
  } else if (typeof v === "string" && NON_FINITE_TEXT.test(v))
    n = /nan/i.test(v) ? NaN : v.trim().startsWith("-") ? -Infinity : Infinity;
  else throw new CdnProtocolError(`${named} is not a number (${kindOf(v)})`, method);
  if (!Number.isFinite(n)) throw new CdnProtocolError(`${named} is ${n}, not a figure`, method);
  if (n < 0 && sign === "count") throw new CdnProtocolError(`${named} is negative (${n}), not a count`, method);
  if (Math.abs(n) > Number.MAX_SAFE_INTEGER)
    throw new CdnProtocolError(`${named} (${n}) is beyond 2^53 and cannot be kept exactly`, method);
  return n;
}

/** A text field: strings stay, numbers become text, booleans "1"/"0" (§2.1, as `compress` is written), absent "". */
function toText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "1" : "0";
  if (typeof v === "number") return String(v);
  return String(jsonSafe(v) ?? "");
}

export type CreateOutcome = { ok: true; result: Row } | { ok: false; code: number; message: string };

/** A create answer: `(0, struct)`, a bare struct (as a public client saw: string id), `[struct]`, or `(code, message)`. */
export function normalizeCreate(v: unknown, method: string): CreateOutcome {
  let struct: unknown = v;
  if (Array.isArray(v)) {
    if (v.length === 0) throw new CdnProtocolError("empty array where (code, struct) was expected", method);
    const code = typeof v[0] === "string" && INT_TEXT.test(v[0]) ? Number(v[0]) : v[0];
    if (typeof code === "number" && Number.isInteger(code)) {
      if (code !== 0) return { ok: false, code, message: toText(v[1]) };
      struct = v[1];
    } else if (v.length === 1 && isStruct(v[0])) struct = v[0];
    else throw new CdnProtocolError("first element of the create answer is not an integer code", method);
  }
  if (!isStruct(struct)) throw new CdnProtocolError(`create answer carries no struct (${kindOf(struct)})`, method);
  const result: Row = {};
  for (const [k, x] of Object.entries(struct))
    defineData(result, k, k === "id" ? toId(x, method, "the created zone's id") : toText(x));
  if (result.id === undefined) throw new CdnProtocolError("create answer has no id", method);
  return { ok: true, result };
}

/** An update/delete answer: 0 is success; 1 (or any other code) failure. TRUE/FALSE tolerated, as is `[status]`. */
export function normalizeStatus(v: unknown, method: string): boolean {
  if (v === 0 || v === true || (typeof v === "string" && /^\s*0\s*$/.test(v))) return true;
  if (typeof v === "number" || v === false || (typeof v === "string" && INT_TEXT.test(v))) return false;
  if (Array.isArray(v) && v.length >= 1) return normalizeStatus(v[0], method);
  throw new CdnProtocolError(`expected an int status, got ${kindOf(v)}`, method);
}

/** A purge answer: TRUE/FALSE, 1/0 (int, i8 or text) or "true"/"false"; only its truth counts (as public clients tested it). */
export function normalizeBoolean(v: unknown, method: string): boolean {
  const t = typeof v === "string" ? v.trim().toLowerCase() : v;
  if (t === true || t === 1 || t === "1" || t === "true") return true;
  if (t === false || t === 0 || t === "0" || t === "false") return false;
  throw new CdnProtocolError(`expected a boolean, got ${kindOf(v)}`, method);
}

/**
 * A listZones answer: every row a struct with an id, no id twice, text fields as strings, `name` required unless
 * `nameOptional` (live rows, §2.2): then it is read from a stream URL's host ({@link nameFromUrl}) or left absent,
 * never made up. Fields the contract does not list are kept as sent.
 */
export function normalizeZones(v: unknown, method: string, fields: readonly string[], nameOptional = false): Row[] {
  if (!Array.isArray(v)) throw new CdnProtocolError(`expected an array of zones, got ${kindOf(v)}`, method);
  const seen = new Set<number>();
  return v.map((raw, i) => {
    if (!isStruct(raw)) throw new CdnProtocolError(`zone ${i} is not a struct`, method);
    const id = toId(raw.id, method, `the id in row ${i + 1}`);
    if (seen.has(id)) throw new CdnProtocolError(`zone ${id} is listed twice`, method);
    seen.add(id);
    const named = toText(raw.name) !== "";
    if (!named && !nameOptional) throw new CdnProtocolError(`zone ${id} has no name`, method);
    const row: Row = { id };
    for (const [k, x] of Object.entries(raw)) if (!fields.includes(k)) defineData(row, k, jsonSafe(x));
    for (const f of fields) if (f !== "id" && (f !== "name" || named)) row[f] = toText(raw[f]);
    const fromUrl = named ? undefined : nameInUrls(raw);
    if (fromUrl !== undefined) {
      row.name = fromUrl;
      NAMED_BY_URL.add(row);
    }
    return row;
  });
}

/** Rows whose `name` was read from their stream URL's host, not sent as `name`. */
const NAMED_BY_URL = new WeakSet<object>();

/** Whether a listZones row's `name` was read from its stream URL's host (whose case may differ) rather than sent. */
export function nameFromUrl(row: object): boolean {
  return NAMED_BY_URL.has(row);
}

const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;

/** The zone name in a row's stream URL: the first label of a host of three labels or more, not an IP address. */
function nameInUrls(raw: Row): string | undefined {
  for (const column of LIVE_URL_COLUMNS) {
    const url = raw[column];
    if (typeof url !== "string") continue;
    // The host: after the scheme and any user info, before a port, path, query or fragment.
    const host = url
      .trim()
      .replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\//, "")
      .split(/[/?#]/, 1)[0]
      .replace(/^.*@/, "")
      .replace(/:\d*$/, "");
    const labels = host.split(".");
    if (labels.length < 3 || /^\d+$/.test(labels[labels.length - 1])) continue;
    if (LABEL.test(labels[0])) return labels[0];
  }
  return undefined;
}

/**
 * User rows: structs with an id (a row without one names the columns sent). The known text fields are text or absent;
 * `fullname`, when not sent, is `firstname` and `lastname` joined; other fields are kept as sent.
 */
export function normalizeUsers(v: unknown, method: string): Row[] {
  if (!Array.isArray(v)) throw new CdnProtocolError(`expected an array of users, got ${kindOf(v)}`, method);
  return v.map((raw, i) => normalizeUser(raw, i, method));
}

function normalizeUser(raw: unknown, i: number, method: string): Row {
  if (!isStruct(raw)) throw new CdnProtocolError(`user row ${i + 1} is not a struct (${kindOf(raw)})`, method);
  if (raw.id === undefined || raw.id === null) {
    const columns = Object.keys(raw).filter((k) => raw[k] !== undefined && raw[k] !== null);
    throw new CdnProtocolError(`user row ${i + 1} has no id (columns sent: ${columns.join(", ") || "none"})`, method);
  }
  const row = jsonSafe(raw) as Row;
  row.id = toId(raw.id, method, `the id in user row ${i + 1}`);
  for (const f of USER_TEXT_FIELDS) {
    if (raw[f] === undefined || raw[f] === null) delete row[f];
    else row[f] = toText(raw[f]);
  }
  if (row.fullname === undefined && (row.firstname !== undefined || row.lastname !== undefined))
    row.fullname = [row.firstname, row.lastname].filter((n) => typeof n === "string" && n !== "").join(" ");
  return row;
}

/**
 * Report rows (structs), or one bare number where the report's entry says it may answer a total. Each of its columns
 * is read from the first of the names it may come under (REPORT_COLUMN_SOURCES); an absent or nil column stays absent,
 * never 0; every column is kept as sent. `zone_id` is `null` for a row of no single zone ({@link rowZone}).
 */
export function normalizeReport(
  v: unknown,
  method: string,
  report: Pick<MethodSpec, "columns" | "mayAnswerTotal">,
  /** `viewby`: the grain of the dates; `zoneAsked`: a row without a zone column is then left without `zone_id`. */
  options?: { viewby?: unknown; zoneAsked?: boolean },
): Row[] | number {
  const dayGrain: DateGrain = options?.viewby === "hourly" ? "hour" : options?.viewby === "monthly" ? "month" : "day";
  if (isFigure(v) && report.mayAnswerTotal) return toFigure(v, "(answer)", method, { where: "(the report's total)" })!;
  if (!Array.isArray(v))
    throw new CdnProtocolError(
      `expected an array of rows${report.mayAnswerTotal ? " or a number" : ""}, got ${kindOf(v)}`,
      method,
    );
  return v.map((raw, i) => {
    if (!isStruct(raw)) throw new CdnProtocolError(`row ${i} is not a struct (${kindOf(raw)})`, method);
    const row = jsonSafe(raw) as Row;
    for (const field of report.columns ?? []) {
      const spec = REPORT_COLUMN_SOURCES[field];
      const column = spec.columns.find((c) => raw[c] !== undefined && raw[c] !== null);
      const x = column === undefined ? undefined : raw[column];
      let value: unknown;
      if (spec.kind === "zone")
        value =
          column === undefined && options?.zoneAsked ? undefined : rowZone(x, method, `the ${field} in row ${i + 1}`);
      else if (column === undefined) value = undefined;
      else if (spec.kind === "text") value = toText(x);
      else if (spec.kind === "number") value = toFigure(x, column, method, { where: `in row ${i + 1}` });
      else {
        const date = reportDate(x, spec.kind === "hour" ? "hour" : dayGrain);
        if (!date.ok) throw new CdnProtocolError(`the ${field} in row ${i + 1} ${date.reason}`, method);
        value = date.date;
      }
      if (value === undefined) delete row[field];
      else row[field] = value;
    }
    return row;
  });
}

/** A report row's zone: its id, or `null` (0, nil, empty or absent) for a row of all zones of an account-wide report. */
function rowZone(v: unknown, method: string, what: string): number | null {
  if (v === undefined || v === null || v === "" || v === 0 || (typeof v === "string" && /^\s*[+-]?0+\s*$/.test(v)))
    return null;
  return toId(v, method, what);
}

/** The bandwidth answer, read into one result that keeps what was sent. */
export interface BandwidthAnswer {
  /** Bytes left of the prepaid bandwidth; undefined when the answer does not say. */
  remaining?: number;
  /** Bytes bought for the period, when the answer says. */
  prepaid?: number;
  /** Bytes used over the period, when the answer says. */
  used?: number;
  /** The period the figures cover, when the answer says. */
  from?: string;
  to?: string;
  /** The rows, when the answer had rows (a struct counts as one row); empty for a bare number. */
  rows: Row[];
  /** False when the answer carried no figure at all (an empty array): "no data", not 0 left. */
  hasData: boolean;
  /** The answer exactly as decoded (JSON-safe). */
  raw: unknown;
}

const BANDWIDTH_FIGURES = ["prepaid", "used", "remaining"] as const;
type BandwidthFigure = (typeof BANDWIDTH_FIGURES)[number];

/** A column name compared without case, underscores, hyphens or spaces: `prepaid_bandwidth` is `prepaidbandwidth`. */
const squash = (column: string) => column.toLowerCase().replace(/[_\s-]/g, "");

/** The spellings (squashed) a bandwidth figure may come under, first found wins: the contract shows none (docs/client.md). */
const BANDWIDTH_SPELLINGS: Readonly<Record<BandwidthFigure | "from" | "to", readonly string[]>> = {
  prepaid: ["prepaid", "prepaidbandwidth", "bandwidthprepaid", "prepaidbytes"],
  used: ["used", "usedbandwidth", "bandwidthused", "usedbytes"],
  remaining: ["remaining", "remainingbandwidth", "bandwidthremaining", "remainingbytes", "bandwidthleft"],
  from: ["from", "datefrom"],
  to: ["to", "dateto"],
};

/** One bandwidth row: each figure under its one name, whatever the server called it (`raw` keeps what was sent). */
function bandwidthRow(r: Row, i: number, method: string): Row {
  const row = jsonSafe(r) as Row;
  const columns = Object.keys(r);
  for (const f of [...BANDWIDTH_FIGURES, "from", "to"] as const) {
    const column = BANDWIDTH_SPELLINGS[f]
      .map((name) => columns.find((c) => squash(c) === name && r[c] !== undefined && r[c] !== null))
      .find((c) => c !== undefined);
    if (column === undefined) continue;
    const value =
      f === "from" || f === "to"
        ? toText(r[column])
        : toFigure(r[column], column, method, {
            sign: f === "remaining" ? "balance" : "count",
            where: `in row ${i + 1}`,
          });
    delete row[column];
    if (value !== undefined) row[f] = value;
  }
  return row;
}

/**
 * account.getBandwidth ("array; the remaining prepaid bandwidth", used by public clients as one number): a number,
 * `[number]`, rows or one struct. A figure is summed over the rows only when every row has it.
 */
export function normalizeBandwidth(v: unknown, method: string): BandwidthAnswer {
  const raw = jsonSafe(v);
  const single = Array.isArray(v) && v.length === 1 && !isStruct(v[0]) ? v[0] : v;
  if (isFigure(single)) {
    const remaining = toFigure(single, "(answer)", method, { sign: "balance", where: "(the bytes left)" });
    return { remaining, rows: [], hasData: true, raw };
  }
  const list = isStruct(v) ? [v] : v;
  if (!Array.isArray(list))
    throw new CdnProtocolError(`expected a number, an array of rows or a struct, got ${kindOf(v)}`, method);
  const rows = list.map((r, i) => {
    if (!isStruct(r)) throw new CdnProtocolError(`row ${i} is not a struct (${kindOf(r)})`, method);
    return bandwidthRow(r, i, method);
  });
  const out: BandwidthAnswer = { rows, hasData: false, raw };
  for (const f of BANDWIDTH_FIGURES) {
    if (rows.length > 0 && rows.every((r) => typeof r[f] === "number")) {
      out[f] = rows.reduce((s, r) => s + (r[f] as number), 0);
      out.hasData = true;
    }
  }
  const [from, to] = [rows[0]?.from, rows[rows.length - 1]?.to];
  if (from !== undefined && from !== null) out.from = toText(from);
  if (to !== undefined && to !== null) out.to = toText(to);
  return out;
}

/** user.update's answer (`array` in the document): `(0, user)`, `[user]`, a bare user, 0, TRUE, or an empty array. */
export function normalizeUserUpdate(v: unknown, method: string): { ok: boolean; user?: Row } {
  if (v === 0 || v === true || v === "0") return { ok: true };
  if (isStruct(v)) return { ok: true, user: normalizeUser(v, 0, method) };
  if (Array.isArray(v)) {
    if (v.length === 0) return { ok: true };
    if (isStruct(v[0])) return { ok: true, user: normalizeUser(v[0], 0, method) };
    if (v[0] === 0 || v[0] === "0" || v[0] === true)
      return { ok: true, user: isStruct(v[1]) ? normalizeUser(v[1], 0, method) : undefined };
    return { ok: false };
  }
  if (v === 1 || v === false || v === "1") return { ok: false };
  throw new CdnProtocolError(`unexpected user.update answer (${kindOf(v)})`, method);
}
