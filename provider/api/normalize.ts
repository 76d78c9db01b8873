/**
 * Turns answers into JSON-safe, typed values. The contract leaves most answers open and the
 * evidence of the real service is thin (docs/client.md), so every plausible shape is accepted:
 * ids and numbers as int, i8 or numeric text; booleans as TRUE/FALSE or 1/0; `nil` as a missing
 * value; a bare create struct; bandwidth as one number or rows; report columns under the names the
 * same company used later. An answer that fits no plausible shape is a protocol error naming the method.
 */
import { CdnProtocolError } from "./errors";
import { asId, idProblem } from "./ids";
import { DateGrain, reportDate } from "./dates";
import { REPORT_FIELDS, ReportName } from "./wire";

type Row = Record<string, unknown>;

/** Makes one value JSON-safe: `Buffer` to text, nested values alike, non-finite numbers to null. */
export function jsonSafe(v: unknown): unknown {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "" : v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString("utf8");
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v && typeof v === "object") {
    const out: Row = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) defineData(out, k, jsonSafe(x));
    return out;
  }
  if (typeof v === "number" && !Number.isFinite(v)) return null;
  return v === undefined ? null : v;
}

/** Sets a key as plain data, so a member named `__proto__` never changes the object's prototype. */
function defineData(o: Row, k: string, v: unknown): void {
  if (k === "__proto__")
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

function isStruct(v: unknown): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date) && !Buffer.isBuffer(v);
}

function kindOf(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "nil";
  if (Array.isArray(v)) return "an array";
  if (isStruct(v)) return "a struct";
  return typeof v;
}

const INT_TEXT = /^\s*[+-]?\d+\s*$/;
const NUMBER_TEXT = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * An id sent as int, i8 (text) or numeric string, as a number. Anything that is not an id by the
 * one rule (ids.ts: an integer from 1 to 2^31-1) is a protocol error naming the value sent.
 */
export function toId(v: unknown, method: string, what = "the id"): number {
  const id = asId(v);
  if (id === undefined) throw new CdnProtocolError(idProblem(v, what)!, method);
  return id;
}

/** A number sent as int, i8, double or numeric text; `undefined` for nil, empty text or a missing value. */
export function toFigure(v: unknown, field: string, method: string): number | undefined {
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string" && NUMBER_TEXT.test(v)) {
    const n = Number(v);
    if (INT_TEXT.test(v) && !Number.isSafeInteger(n))
      throw new CdnProtocolError(`field '${field}' (${v.trim()}) is beyond 2^53 and cannot be kept exactly`, method);
    return n;
  }
  throw new CdnProtocolError(`field '${field}' is not a number (${kindOf(v)})`, method);
}

/**
 * A field expected to hold text: strings stay (dateTime values as the exact text sent), numbers
 * become text, booleans "1"/"0" (§2.1: a boolean is 0 or 1, as `compress` is written), absent "".
 */
function toText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "boolean") return v ? "1" : "0";
  if (typeof v === "number") return String(v);
  return String(jsonSafe(v) ?? "");
}

/** A boolean sent as TRUE/FALSE, 1/0 (int, i8 or text) or "true"/"false"; undefined for anything else. */
export function toBoolean(v: unknown): boolean | undefined {
  if (v === true || v === 1) return true;
  if (v === false || v === 0) return false;
  if (typeof v === "string") {
    const t = v.trim().toLowerCase();
    if (t === "1" || t === "true") return true;
    if (t === "0" || t === "false") return false;
  }
  return undefined;
}

export type CreateOutcome = { ok: true; result: Row } | { ok: false; code: number; message: string };

/** A create answer: `(0, struct)`, a bare struct (as a public client saw: string id), `[struct]`, or `(code, message)`. */
export function normalizeCreate(v: unknown, method: string): CreateOutcome {
  let struct: unknown;
  if (Array.isArray(v)) {
    if (v.length === 0) throw new CdnProtocolError("empty array where (code, struct) was expected", method);
    const code = typeof v[0] === "string" && INT_TEXT.test(v[0]) ? Number(v[0]) : v[0];
    if (typeof code !== "number" || !Number.isInteger(code)) {
      if (v.length === 1 && isStruct(v[0])) struct = v[0];
      else throw new CdnProtocolError("first element of the create answer is not an integer code", method);
    } else if (code !== 0) {
      return { ok: false, code, message: toText(v[1]) };
    } else {
      struct = v[1];
    }
  } else {
    struct = v;
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

/** A purge answer: TRUE/FALSE, 1/0, or their text; only its truth counts (as public clients tested it). */
export function normalizeBoolean(v: unknown, method: string): boolean {
  const b = toBoolean(v);
  if (b === undefined) throw new CdnProtocolError(`expected a boolean, got ${kindOf(v)}`, method);
  return b;
}

/**
 * A listZones answer: every row a struct with an id, no id twice, text fields as strings.
 * `name` is required where the contract lists it (§2.2); live rows may carry only `id`, and then
 * have no `name` key at all. Fields the contract does not list are kept as sent.
 */
export function normalizeZones(v: unknown, method: string, fields: readonly string[], nameOptional = false): Row[] {
  if (!Array.isArray(v)) throw new CdnProtocolError(`expected an array of zones, got ${kindOf(v)}`, method);
  const seen = new Set<number>();
  return v.map((raw, i) => {
    if (!isStruct(raw)) throw new CdnProtocolError(`zone ${i} is not a struct`, method);
    const id = toId(raw.id, method, `the id in row ${i + 1}`);
    if (seen.has(id)) throw new CdnProtocolError(`zone ${id} is listed twice`, method);
    seen.add(id);
    const name = raw.name === null || raw.name === undefined ? undefined : toText(raw.name);
    if ((name === undefined || name === "") && !nameOptional)
      throw new CdnProtocolError(`zone ${id} has no name`, method);
    const row: Row = { id };
    for (const [k, x] of Object.entries(raw)) if (!fields.includes(k)) defineData(row, k, jsonSafe(x));
    for (const f of fields) {
      if (f === "id") continue;
      if (f === "name" && (name === undefined || name === "")) continue;
      row[f] = toText(raw[f]);
    }
    return row;
  });
}

/** User rows: an array of structs, `id` as a number, every other field as sent (JSON-safe). */
export function normalizeRows(v: unknown, method: string): Row[] {
  if (!Array.isArray(v)) throw new CdnProtocolError(`expected an array of rows, got ${kindOf(v)}`, method);
  return v.map((raw, i) => {
    if (!isStruct(raw)) throw new CdnProtocolError(`row ${i} is not a struct`, method);
    const row = jsonSafe(raw) as Row;
    if (raw.id !== undefined && raw.id !== null) row.id = toId(raw.id, method, `the id in row ${i + 1}`);
    return row;
  });
}

/**
 * Report rows. Accepted: an array of structs, or a bare number (the signature of
 * getTotalHits, getCacheHitStats and getUsagePerDay says int). Each typed field is read from its
 * column or from a plausible other name (REPORT_FIELDS); a field whose column is absent or nil
 * stays absent, never 0; every column sent is kept as sent. A bare number becomes one row
 * `{ total }`, plus the figure the method's name states (`hits` of getTotalHits, `transfer` of
 * getTotalTransfer).
 */
export function normalizeReport(
  v: unknown,
  method: string,
  report: ReportName,
  /** The call's options: `viewby` sets the grain of getTotalTransferStats' dates. */
  options?: { viewby?: unknown },
): Row[] {
  const dayGrain: DateGrain = options?.viewby === "hourly" ? "hour" : options?.viewby === "monthly" ? "month" : "day";
  const bare =
    typeof v === "number" || (typeof v === "string" && NUMBER_TEXT.test(v))
      ? toFigure(v, "(answer)", method)
      : undefined;
  if (bare !== undefined) {
    const row: Row = { total: bare };
    if (report === "getTotalHits") row.hits = bare;
    if (report === "getTotalTransfer") row.transfer = bare;
    return [row];
  }
  if (!Array.isArray(v)) throw new CdnProtocolError(`expected an array of rows or a number, got ${kindOf(v)}`, method);
  const fields = REPORT_FIELDS[report];
  return v.map((raw, i) => {
    if (!isStruct(raw)) throw new CdnProtocolError(`row ${i} is not a struct (${kindOf(raw)})`, method);
    const row = jsonSafe(raw) as Row;
    for (const [field, spec] of Object.entries(fields)) {
      const column = spec.columns.find((c) => raw[c] !== undefined && raw[c] !== null);
      if (column === undefined) {
        delete row[field];
        continue;
      }
      const x = raw[column];
      let value: unknown;
      if (spec.kind === "text") value = toText(x);
      else if (spec.kind === "id") value = toId(x, method, `the ${field} in row ${i + 1}`);
      else if (spec.kind === "number") value = toFigure(x, column, method);
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

/**
 * account.getBandwidth: the contract says "array; the remaining prepaid bandwidth" and public
 * clients used it as one number (bytes left). Accepted: a number or numeric text, `[number]`, an
 * array of rows, or one struct. A figure is summed over the rows only when every row has it.
 */
export function normalizeBandwidth(v: unknown, method: string): BandwidthAnswer {
  const raw = jsonSafe(v);
  const single = Array.isArray(v) && v.length === 1 && !isStruct(v[0]) ? v[0] : v;
  if (typeof single === "number" || (typeof single === "string" && NUMBER_TEXT.test(single))) {
    return { remaining: toFigure(single, "(answer)", method), rows: [], hasData: true, raw };
  }
  const list = isStruct(v) ? [v] : v;
  if (!Array.isArray(list))
    throw new CdnProtocolError(`expected a number, an array of rows or a struct, got ${kindOf(v)}`, method);
  const rows = list.map((r, i) => {
    if (!isStruct(r)) throw new CdnProtocolError(`row ${i} is not a struct (${kindOf(r)})`, method);
    const row = jsonSafe(r) as Row;
    for (const f of BANDWIDTH_FIGURES) {
      const n = toFigure(r[f], f, method);
      if (n === undefined) delete row[f];
      else row[f] = n;
    }
    return row;
  });
  const out: BandwidthAnswer = { rows, hasData: false, raw };
  for (const f of BANDWIDTH_FIGURES) {
    if (rows.length > 0 && rows.every((r) => typeof r[f] === "number")) {
      out[f] = rows.reduce((s, r) => s + (r[f] as number), 0);
      out.hasData = true;
    }
  }
  if (rows.length > 0) {
    const first = rows[0];
    const last = rows[rows.length - 1];
    if (first.from !== undefined && first.from !== null) out.from = toText(first.from);
    if (last.to !== undefined && last.to !== null) out.to = toText(last.to);
  }
  return out;
}

/** user.update's answer (`array` in the document): `(0, user)`, `[user]`, a bare user, 0, TRUE, or an empty array. */
export function normalizeUserUpdate(v: unknown, method: string): { ok: boolean; user?: Row } {
  if (v === 0 || v === true || v === "0") return { ok: true };
  if (isStruct(v)) return { ok: true, user: normalizeRows([v], method)[0] };
  if (Array.isArray(v)) {
    if (v.length === 0) return { ok: true };
    if (isStruct(v[0])) return { ok: true, user: normalizeRows([v[0]], method)[0] };
    if (v[0] === 0 || v[0] === "0" || v[0] === true)
      return { ok: true, user: isStruct(v[1]) ? normalizeRows([v[1]], method)[0] : undefined };
    return { ok: false };
  }
  if (v === 1 || v === false || v === "1") return { ok: false };
  throw new CdnProtocolError(`unexpected user.update answer (${kindOf(v)})`, method);
}
