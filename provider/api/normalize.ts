/**
 * Turns answers into JSON-safe, typed values, tolerating the shapes deployments of this API were
 * seen to use (string ids, a bare create struct, `vanity_ip` as int) and refusing, with a protocol
 * error that names the method, answers that break the contract.
 */
import { CdnProtocolError } from "./errors";
import { NUMERIC_FIELDS } from "./wire";

type Row = Record<string, unknown>;

/** Makes one value JSON-safe: `Date` to ISO text, `Buffer` to text, nested values alike. */
export function jsonSafe(v: unknown): unknown {
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? "" : v.toISOString();
  if (Buffer.isBuffer(v)) return v.toString("utf8");
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v && typeof v === "object") {
    const out: Row = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = jsonSafe(x);
    return out;
  }
  if (typeof v === "number" && !Number.isFinite(v)) return null;
  return v === undefined ? null : v;
}

function isStruct(v: unknown): v is Row {
  return typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date) && !Buffer.isBuffer(v);
}

/** An id sent as int or numeric string, as a number; anything else is a protocol error. */
export function toId(v: unknown, method: string, what = "id"): number {
  const n = typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n) || n < 0) {
    throw new CdnProtocolError(`${what} is ${v === undefined ? "missing" : `not an integer (${v instanceof Date ? "a date" : Array.isArray(v) ? "an array" : v === null ? "nil" : typeof v})`}`, method);
  }
  return n;
}

/** A field expected to hold text: strings stay, numbers and booleans become text, absent becomes "". */
function toText(v: unknown): string {
  if (v === undefined || v === null) return "";
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  return String(jsonSafe(v) ?? "");
}

/** A numeric report field: numbers stay, numeric strings become numbers. */
function toNumber(v: unknown, field: string, method: string): number {
  if (typeof v === "number") return v;
  if (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) return Number(v);
  throw new CdnProtocolError(`field '${field}' is not a number`, method);
}

export type CreateOutcome = { ok: true; result: Row } | { ok: false; code: number; message: string };

/** A create answer: `(0, struct)`, a bare struct, or `(code, message)`. */
export function normalizeCreate(v: unknown, method: string): CreateOutcome {
  let struct: unknown;
  if (Array.isArray(v)) {
    if (v.length === 0) throw new CdnProtocolError("empty array where (code, struct) was expected", method);
    const code = typeof v[0] === "string" && /^\d+$/.test(v[0]) ? Number(v[0]) : v[0];
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
  if (!isStruct(struct)) throw new CdnProtocolError("create answer carries no struct", method);
  const result: Row = {};
  for (const [k, x] of Object.entries(struct)) result[k] = k === "id" ? toId(x, method) : toText(x);
  if (result.id === undefined) throw new CdnProtocolError("create answer has no id", method);
  return { ok: true, result };
}

/** An update/delete answer: 0 is success; 1 (or any other code) failure. TRUE/FALSE tolerated. */
export function normalizeStatus(v: unknown, method: string): boolean {
  if (v === 0 || v === "0" || v === true) return true;
  if (typeof v === "number" || v === false || (typeof v === "string" && /^\d+$/.test(v))) return false;
  if (Array.isArray(v) && v.length >= 1) return normalizeStatus(v[0], method);
  throw new CdnProtocolError(`expected an int status, got ${typeof v}`, method);
}

/** A purge answer: TRUE/FALSE, tolerating 1/0. */
export function normalizeBoolean(v: unknown, method: string): boolean {
  if (v === true || v === 1 || v === "1") return true;
  if (v === false || v === 0 || v === "0") return false;
  throw new CdnProtocolError(`expected a boolean, got ${Array.isArray(v) ? "an array" : typeof v}`, method);
}

/** A listZones answer: every row a struct with an id and a name, no id twice, text fields as strings. */
export function normalizeZones(v: unknown, method: string, fields: readonly string[]): Row[] {
  if (!Array.isArray(v)) throw new CdnProtocolError(`expected an array of zones, got ${isStruct(v) ? "a struct" : typeof v}`, method);
  const seen = new Set<number>();
  return v.map((raw, i) => {
    if (!isStruct(raw)) throw new CdnProtocolError(`zone ${i} is not a struct`, method);
    const id = toId(raw.id, method, `id of zone ${i}`);
    if (seen.has(id)) throw new CdnProtocolError(`zone ${id} is listed twice`, method);
    seen.add(id);
    if (typeof raw.name !== "string" || raw.name === "") throw new CdnProtocolError(`zone ${id} has no name`, method);
    const row: Row = { id };
    for (const f of fields) if (f !== "id") row[f] = toText(raw[f]);
    return row;
  });
}

/** Report, user and bandwidth rows: an array of structs, numeric fields as numbers. */
export function normalizeRows(v: unknown, method: string): Row[] {
  if (!Array.isArray(v)) throw new CdnProtocolError(`expected an array of rows, got ${isStruct(v) ? "a struct" : typeof v}`, method);
  return v.map((raw, i) => {
    if (!isStruct(raw)) throw new CdnProtocolError(`row ${i} is not a struct`, method);
    const row: Row = {};
    for (const [k, x] of Object.entries(raw)) {
      row[k] = NUMERIC_FIELDS.has(k) && x !== null && x !== "" ? toNumber(x, k, method) : jsonSafe(x);
    }
    return row;
  });
}

/** user.update's answer (`array` in the document): `(0, user)`, `[user]`, a bare user, or 0. */
export function normalizeUserUpdate(v: unknown, method: string): { ok: boolean; user?: Row } {
  if (v === 0 || v === true) return { ok: true };
  if (isStruct(v)) return { ok: true, user: normalizeRows([v], method)[0] };
  if (Array.isArray(v)) {
    if (v.length === 0) return { ok: true };
    if (isStruct(v[0])) return { ok: true, user: normalizeRows([v[0]], method)[0] };
    if (v[0] === 0 || v[0] === "0") return { ok: true, user: isStruct(v[1]) ? normalizeRows([v[1]], method)[0] : undefined };
    return { ok: false };
  }
  if (v === 1 || v === false) return { ok: false };
  throw new CdnProtocolError(`unexpected user.update answer (${typeof v})`, method);
}
