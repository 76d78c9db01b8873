/**
 * What the function layer checks on top of the client: argument names, the named `type` of the totals, camelCase
 * `sortBy` columns, control characters in text, paging options. Dates, their order, formats and bounds the client
 * checks (api/encode.ts), once, before sending.
 */
import { CdnValidationError } from "../api/errors";
import { asId, idProblem } from "../api/ids";
import { printable, unprintableChar } from "../api/terminalText";

/**
 * Why a text argument is refused for a control character (C0, C1, DEL, line separators, bidirectional
 * formatting: api/terminalText.ts), naming the character and not showing the value; undefined when it has none.
 */
export function controlProblem(v: string): string | undefined {
  const c = unprintableChar(v);
  return c ? `contains a control character (${c}), which no argument may hold` : undefined;
}

/** A date argument: `Y-m-d` text or a `Date` (taken as its UTC calendar day). */
export type DateInput = string | Date;

/** The window of getTotalTransfer / getTotalHits: today so far, the current hour, or `from`..`to`. */
export type ReportType = "today" | "currentHour" | "range";

/** `type` on the wire (§4.9 of docs/api-contract.md: 1 today, 2 current hour, 3 a date range). */
export const REPORT_TYPES: Readonly<Record<ReportType, 1 | 2 | 3>> = { today: 1, currentHour: 2, range: 3 };

/** Refuses anything but a plain object whose keys are all in `allowed`. */
export function checkArgs(fn: string, args: unknown, allowed: readonly string[]): Record<string, unknown> {
  if (args === undefined || args === null) return {};
  if (typeof args !== "object" || Array.isArray(args) || args instanceof Date)
    throw new CdnValidationError("args", `must be an object of named arguments`, fn);
  for (const k of Object.keys(args)) {
    if (!allowed.includes(k))
      throw new CdnValidationError(k, `is not an argument of ${fn} (arguments: ${allowed.join(", ") || "none"})`, fn);
  }
  return args as Record<string, unknown>;
}

/** The wire `type` for a named choice; `range` when omitted but dates are given. */
export function reportType(fn: string, v: unknown, hasDates: boolean): 1 | 2 | 3 | undefined {
  if (v === undefined || v === null) return hasDates ? 3 : undefined;
  if (typeof v === "string" && Object.prototype.hasOwnProperty.call(REPORT_TYPES, v))
    return REPORT_TYPES[v as ReportType];
  throw new CdnValidationError(
    "type",
    `unknown type ${typeof v === "string" ? `'${v.slice(0, 40)}'` : String(v)}: use one of ${Object.keys(REPORT_TYPES).join(", ")}`,
    fn,
  );
}

/**
 * `sortBy` entries with camelCase or wire column names (`cacheHitRatio DESC`, `cache_hit_ratio DESC`)
 * as the wire's `sortby`; the client then checks each entry's form (the server, its columns).
 */
export function sortByArg(fn: string, v: unknown): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  const list = typeof v === "string" ? [v] : v;
  if (!Array.isArray(list))
    throw new CdnValidationError("sortBy", "must be an array of '<column> ASC|DESC' strings", fn);
  return list.map((entry, i) => {
    if (typeof entry !== "string") throw new CdnValidationError("sortBy", `entry ${i} must be a string`, fn);
    const control = controlProblem(entry);
    if (control) throw new CdnValidationError("sortBy", `entry ${i} ${control}`, fn);
    const m = /^\s*(\S+)(\s+.*)?$/.exec(entry);
    return m ? `${m[1].replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}${m[2] ?? ""}` : entry;
  });
}

/** An integer argument (zoneId by the ids rule; maxReturn, offset, pageSize for type: the client checks bounds). */
export function intArg(fn: string, name: string, v: unknown, required = false): number | undefined {
  if (v === undefined || v === null) {
    if (required) throw new CdnValidationError(name, "is required", fn);
    return undefined;
  }
  if (name === "zoneId") {
    // The one rule for ids (api/ids.ts), with the value as given in the message.
    const id = asId(v);
    if (id === undefined) throw new CdnValidationError(name, idProblem(v, "it")!, fn);
    return id;
  }
  const n = typeof v === "string" && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
  if (typeof n !== "number" || !Number.isInteger(n))
    throw new CdnValidationError(name, `must be an integer, got ${given(v)}`, fn);
  return n;
}

/** A refused value as a message names it: text quoted (its first 40 characters), anything else by its type. */
export const given = (v: unknown): string => (typeof v === "string" ? `'${v.slice(0, 40)}'` : typeof v);

/** An optional string argument. */
export function stringArg(fn: string, name: string, v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw new CdnValidationError(name, `must be a string, got ${typeof v}`, fn);
  const control = controlProblem(v);
  if (control) throw new CdnValidationError(name, control, fn);
  return v;
}

/**
 * Turns a wire row into camelCase (`zone_id` -> `zoneId`); values are already JSON-safe, numbers numbers, and text
 * is made printable as resource outputs are: `pulumi stack output` prints a result's C1, bidi and DEL raw.
 */
export function camelRow<T>(row: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row))
    out[k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase())] = printableValue(v);
  return out as T;
}

/** `v` with every string in it, at any depth, through {@link printable}. */
export const printableValue = (v: unknown): unknown =>
  typeof v === "string"
    ? printable(v)
    : Array.isArray(v)
      ? v.map(printableValue)
      : v !== null && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, printableValue(x)]))
        : v;
