/** Checks a call's parameters against the method table and turns them into wire values, before anything is sent. */
import { IANAZone } from "luxon";
import { isYmd, toYmd } from "./dates";
import { CdnValidationError } from "./errors";
import { INT32_MAX } from "./ids";
import { MethodSpec, ParamSpec, wireName } from "./methods";
import { isXmlSafe } from "./xmlrpc";

/**
 * Validates a call's parameters by name and returns them as the wire's positional values: an omitted optional one is
 * `nil` when a later one is given, trailing ones are dropped; a name the table does not have is refused. `extra` (only
 * `client.call` gives them) are sent after the table's: public clients sent `pullzone.listZones` a trailing `type`;
 * they are checked only for being values XML-RPC can carry.
 */
export function encodeParams(
  spec: MethodSpec,
  params: Record<string, unknown>,
  extra: readonly unknown[] = [],
): unknown[] {
  const method = wireName(spec);
  const names = spec.params.map((p) => p.name);
  const unknown = Object.keys(params).find((k) => !names.includes(k));
  if (unknown !== undefined)
    throw new CdnValidationError(
      unknown,
      `is not a parameter of the method (it takes ${names.join(", ") || "none"})`,
      method,
    );
  const out: unknown[] = spec.params.map((p) => encodeOne(method, p, params[p.name]));
  extra.forEach((v, i) => out.push(encodeExtra(method, `parameter ${names.length + i + 4}`, v)));
  let last = out.length - 1;
  while (last >= 0 && out[last] === undefined) last--;
  const trimmed = out.slice(0, last + 1).map((v) => (v === undefined ? null : v));
  checkTogether(method, Object.fromEntries(names.map((name, i) => [name, trimmed[i]])));
  return trimmed;
}

/** A parameter the table does not describe: any int, double, boolean, XML-safe string, array or struct of them. */
function encodeExtra(method: string, name: string, v: unknown, depth = 0): unknown {
  const fail = (reason: string): never => {
    throw new CdnValidationError(name, reason, method);
  };
  if (depth > 16) return fail("is nested too deeply");
  if (v === undefined || v === null) return depth === 0 ? undefined : null;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return fail(`must be a finite number, got ${v}`);
    if (Number.isInteger(v) && Math.abs(v) > INT32_MAX) return fail(`${v} does not fit a 32-bit XML-RPC int`);
    return v;
  }
  if (typeof v === "boolean") return v;
  if (typeof v === "string")
    return isXmlSafe(v) ? v : fail("contains characters that XML cannot carry (control characters)");
  if (v instanceof Date) return Number.isNaN(v.getTime()) ? fail("is an invalid Date") : toYmd(v);
  if (Array.isArray(v)) return v.map((x) => encodeExtra(method, name, x, depth + 1));
  if (typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (!isXmlSafe(k)) fail(`key '${k.slice(0, 40)}' contains characters that XML cannot carry`);
      if (x !== undefined) out[k] = encodeExtra(method, name, x, depth + 1);
    }
    return out;
  }
  return fail(`cannot be sent as an XML-RPC value (${typeof v})`);
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
      if (p.enum && !p.enum.includes(v)) return fail(`must be one of ${p.enum.join(", ")}, got '${v.slice(0, 40)}'`);
      if (p.timeZone && v !== "GMT" && !IANAZone.isValidZone(v))
        return fail(`'${v.slice(0, 60)}' is not a time zone name (e.g. GMT, Europe/Paris)`);
      if (p.required && v === "") return fail("must not be empty");
      return v;
    }
    case "date": {
      if (v instanceof Date) return Number.isNaN(v.getTime()) ? fail("is an invalid Date") : toYmd(v);
      // A Date from a resource's output: pulumi.output(date) copies it into {}.
      if (typeof v === "object" && v !== null && Object.keys(v).length === 0)
        return fail(
          "must be a Y-m-d date or a Date, got {} (pulumi.output(date) copies a Date into {}: pass the Date itself)",
        );
      if (typeof v !== "string") return fail(`must be a Y-m-d date string, got ${describe(v)}`);
      if (!isYmd(v)) return fail(`must be a date in Y-m-d form (2026-11-21), got '${v.slice(0, 40)}'`);
      return v;
    }
    case "mixed": {
      if (typeof v === "number") return encodeInt(p, v, fail);
      if (typeof v !== "string" || v === "")
        return fail(`must be a company id (int) or company alias (string), got ${describe(v)}`);
      if (!isXmlSafe(v)) return fail("contains characters that XML cannot carry");
      return /^\d+$/.test(v) ? Number(v) : v;
    }
    case "struct":
      return encodeStruct(p, v, fail);
    case "sortby":
      return encodeSortby(v, fail);
  }
}

function encodeInt(p: ParamSpec, v: unknown, fail: (r: string) => never): number {
  const n = typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v.trim()) : v;
  if (typeof n !== "number" || !Number.isInteger(n)) return fail(`must be an integer, got ${describe(v)}`);
  if (Math.abs(n) > INT32_MAX) return fail(`${n} does not fit a 32-bit XML-RPC int`);
  if (p.enum && !p.enum.includes(n)) return fail(`must be one of ${p.enum.join(", ")}, got ${n}`);
  const { min, max } = p;
  if (min !== undefined && max !== undefined && max < INT32_MAX && (n < min || n > max))
    return fail(`must be between ${min} and ${max}, got ${n}`);
  if (min !== undefined && n < min)
    return fail(min === 1 ? `must be a positive integer, got ${n}` : `must be ${min} or more, got ${n}`);
  if (max !== undefined && n > max) return fail(`must be ${max} or less, got ${n}`);
  return n;
}

function encodeStruct(p: ParamSpec, v: unknown, fail: (r: string) => never): Record<string, string> {
  if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Date)
    return fail(`must be a struct (object), got ${describe(v)}`);
  const allowed = new Set(p.keys ?? []);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v as Record<string, unknown>)) {
    if (!p.openKeys && !allowed.has(k)) fail(`key '${k}' is not accepted here (accepted: ${[...allowed].join(", ")})`);
    if (p.openKeys && (k === "" || !isXmlSafe(k))) fail(`key '${k.slice(0, 40)}' is not a usable struct key`);
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

/** `sortby` entries are checked for their form only: which columns exist is the server's to say (the contract shows none). */
function encodeSortby(v: unknown, fail: (r: string) => never): string[] {
  const list = typeof v === "string" ? [v] : v;
  if (!Array.isArray(list)) return fail(`must be an array of '<column> ASC|DESC' strings, got ${describe(v)}`);
  return list.map((entry, i) => {
    if (typeof entry !== "string") return fail(`entry ${i} must be a string, got ${describe(entry)}`);
    const m = /^\s*([A-Za-z_][A-Za-z0-9_.]*)\s+(ASC|DESC)\s*$/i.exec(entry);
    if (!m) return fail(`entry ${i} must be '<column> ASC' or '<column> DESC', got '${entry.slice(0, 60)}'`);
    return `${m[1]} ${m[2].toUpperCase()}`;
  });
}

/** Rules that involve two parameters: a range's order, and `type` 3 needing `from` and `to` (the functions' too). */
export function checkTogether(method: string, v: Record<string, unknown>): void {
  if ("type" in v && v.type === 3 && (typeof v.from !== "string" || typeof v.to !== "string")) {
    throw new CdnValidationError(
      typeof v.from !== "string" ? "from" : "to",
      "is required when type is 3 (a date range)",
      method,
    );
  }
  for (const [a, b] of Object.entries({ from: "to", dateFrom: "dateTo" })) {
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
