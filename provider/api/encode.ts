/**
 * Checks a call's parameters against the method table and turns them into wire values, so that a
 * bad value is refused with the parameter's name before anything is sent.
 */
import { IANAZone } from "luxon";
import { MAX_RETURN_LIMIT } from "./config";
import { CdnValidationError } from "./errors";
import { MethodSpec, ParamSpec, wireName } from "./methods";
import { REPORT_COLUMNS, ReportName, VIEWBY } from "./wire";

const INT32_MAX = 2 ** 31 - 1;
const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
// XML 1.0 forbids C0 controls other than tab, LF and CR, and lone surrogates; the API requires XML-safe strings (§2.1).
// eslint-disable-next-line no-control-regex
const XML_UNSAFE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Whether a string can travel in an XML-RPC document unchanged. */
export function isXmlSafe(s: string): boolean {
  return !XML_UNSAFE.test(s);
}

/** Whether `s` is a real calendar date in `Y-m-d` form. */
export function isYmd(s: string): boolean {
  const m = YMD.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
  return d.getUTCFullYear() === +m[1] && d.getUTCMonth() === +m[2] - 1 && d.getUTCDate() === +m[3];
}

/** A `Date` as the `Y-m-d` of its UTC calendar day. */
export function toYmd(d: Date): string {
  return d.toISOString().slice(0, 10);
}

/**
 * Validates positional arguments (after the auth parameters) and returns them as wire values:
 * an omitted optional parameter becomes `nil` only when a later one is given; trailing ones are dropped.
 */
export function encodeParams(spec: MethodSpec, args: readonly unknown[]): unknown[] {
  const method = wireName(spec);
  if (args.length > spec.params.length) {
    throw new CdnValidationError("(arguments)", `${method} takes at most ${spec.params.length} parameters after the auth parameters, got ${args.length}`, method);
  }
  const out = spec.params.map((p, i) => encodeOne(method, p, args[i]));
  let last = out.length - 1;
  while (last >= 0 && out[last] === undefined) last--;
  const trimmed = out.slice(0, last + 1).map((v) => (v === undefined ? null : v));
  checkTogether(method, Object.fromEntries(spec.params.map((p, i) => [p.name, trimmed[i]])));
  return trimmed;
}

function encodeOne(method: string, p: ParamSpec, v: unknown): unknown {
  if (v === undefined || v === null) {
    if (p.required) throw new CdnValidationError(p.name, "is required", method);
    return undefined;
  }
  const fail = (reason: string): never => {
    throw new CdnValidationError(p.name, reason, method);
  };
  switch (p.type) {
    case "int":
      return encodeInt(p, v, fail);
    case "string": {
      if (p.numericString) return String(encodeInt(p, v, fail));
      if (typeof v !== "string") return fail(`must be a string, got ${describe(v)}`);
      if (!isXmlSafe(v)) return fail("contains characters that XML cannot carry (control characters)");
      if (p.name === "viewby" && !(VIEWBY as readonly string[]).includes(v)) return fail(`must be one of ${VIEWBY.join(", ")}, got '${v}'`);
      if (p.name === "timezone" && v !== "GMT" && !IANAZone.isValidZone(v)) return fail(`'${v}' is not a time zone name (e.g. GMT, Europe/Paris)`);
      if (p.required && v === "") return fail("must not be empty");
      return v;
    }
    case "date": {
      if (v instanceof Date) {
        if (Number.isNaN(v.getTime())) return fail("is an invalid Date");
        return toYmd(v);
      }
      if (typeof v !== "string") return fail(`must be a Y-m-d date string, got ${describe(v)}`);
      if (!isYmd(v)) return fail(`must be a date in Y-m-d form (2026-11-21), got '${v.slice(0, 40)}'`);
      return v;
    }
    case "mixed": {
      if (typeof v === "number") return encodeInt(p, v, fail);
      if (typeof v !== "string" || v === "") return fail(`must be a company id (int) or company alias (string), got ${describe(v)}`);
      if (!isXmlSafe(v)) return fail("contains characters that XML cannot carry");
      return /^\d+$/.test(v) ? Number(v) : v;
    }
    case "struct":
      return encodeStruct(p, v, fail);
    case "sortby":
      return encodeSortby(method, p, v, fail);
  }
}

function encodeInt(p: ParamSpec, v: unknown, fail: (r: string) => never): number {
  const n = typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v;
  if (typeof n !== "number" || !Number.isInteger(n)) return fail(`must be an integer, got ${describe(v)}`);
  if (Math.abs(n) > INT32_MAX) return fail(`${n} does not fit a 32-bit XML-RPC int`);
  if (p.name === "maxReturn" && (n < 1 || n > MAX_RETURN_LIMIT)) return fail(`must be between 1 and ${MAX_RETURN_LIMIT}, got ${n}`);
  if (p.name === "offset" && n < 0) return fail(`must be 0 or more, got ${n}`);
  if ((p.name === "id" || p.name === "zoneId") && n <= 0) return fail(`must be a positive id, got ${n}`);
  if (p.name === "type" && ![1, 2, 3].includes(n)) return fail(`must be 1 (today), 2 (current hour) or 3 (range), got ${n}`);
  return n;
}

function encodeStruct(p: ParamSpec, v: unknown, fail: (r: string) => never): Record<string, string> {
  if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Date) return fail(`must be a struct (object), got ${describe(v)}`);
  const allowed = new Set(p.keys ?? []);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (!allowed.has(k)) fail(`key '${k}' is not accepted here (accepted: ${[...allowed].join(", ")})`);
    if (val === undefined || val === null) continue;
    if (typeof val !== "string") fail(`key '${k}' must be a string, got ${describe(val)}`);
    if (!isXmlSafe(val as string)) fail(`key '${k}' contains characters that XML cannot carry (control characters)`);
    out[k] = val as string;
  }
  for (const k of p.requiredKeys ?? []) {
    if (out[k] === undefined || out[k] === "") fail(`key '${k}' is required`);
  }
  return out;
}

function encodeSortby(method: string, p: ParamSpec, v: unknown, fail: (r: string) => never): string[] {
  const list = typeof v === "string" ? [v] : v;
  if (!Array.isArray(list)) return fail(`must be an array of '<column> ASC|DESC' strings, got ${describe(v)}`);
  const columns: readonly string[] = REPORT_COLUMNS[method.split(".")[1] as ReportName] ?? [];
  return list.map((entry, i) => {
    if (typeof entry !== "string") return fail(`entry ${i} must be a string, got ${describe(entry)}`);
    const m = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s+(ASC|DESC)\s*$/i.exec(entry);
    if (!m) return fail(`entry ${i} must be '<column> ASC' or '<column> DESC', got '${entry.slice(0, 60)}'`);
    if (columns.length && !columns.includes(m[1])) return fail(`unknown column '${m[1]}' (columns: ${columns.join(", ")})`);
    return `${m[1]} ${m[2].toUpperCase()}`;
  });
}

/** Rules that involve two parameters: a range's order, and `type` 3 needing `from` and `to`. */
function checkTogether(method: string, v: Record<string, unknown>): void {
  if ("type" in v && v.type === 3 && (typeof v.from !== "string" || typeof v.to !== "string")) {
    throw new CdnValidationError(typeof v.from !== "string" ? "from" : "to", "is required when type is 3 (a date range)", method);
  }
  for (const [a, b] of [
    ["from", "to"],
    ["dateFrom", "dateTo"],
  ]) {
    if (typeof v[a] === "string" && typeof v[b] === "string" && (v[a] as string) > (v[b] as string)) {
      throw new CdnValidationError(a, `${a} ${v[a]} is after ${b} ${v[b]}`, method);
    }
  }
}

/** A short description of a wrong value for messages, never the value itself when it is long. */
export function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  if (v instanceof Date) return "a Date";
  if (typeof v === "string") return v.length > 40 ? `a string of ${v.length} characters` : `'${v}'`;
  if (typeof v === "object") return "an object";
  return `${typeof v} ${String(v)}`;
}
