/**
 * One rule for ids, everywhere: an id (of a zone, a user, a company) is an integer from 1 to
 * 2^31-1, the range of XML-RPC's `<int>` in which the API's methods take an id back (a zone's id is
 * sent to update, delete and the reports). Every place that reads an id asks this module: listZones
 * rows, a create's answer, report and user rows, the engine's resource id, a state file read by
 * `--exclude-state`, a function's `zoneId`, the emulator. A refusal names the value as given.
 */

/** The largest 32-bit signed integer: XML-RPC's `<int>`, the largest id, and the longest delay Node's timers take. */
export const INT32_MAX = 2_147_483_647;

/** The rule in words, for messages. */
export const ID_RULE = `ids are integers from 1 to ${INT32_MAX}`;

/** The id `v` holds: a number, or integer text as an `<i8>` or `<string>` brings it; undefined when it holds none. */
export function asId(v: unknown): number | undefined {
  const n = typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= INT32_MAX ? n : undefined;
}

/** The value as a message shows it: a number or text as given (text cut at 40 characters), else its kind. */
export function shownValue(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "nil";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return v.trim() === "" ? "empty text" : `'${v.trim().slice(0, 40)}'`;
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "a struct" : `a ${typeof v}`;
}

/**
 * Why `v` is not an id, naming it (`the id in row 1 is -5, not an id (ids are integers from 1 to
 * 2147483647)`); undefined for an id. `what` names where the value was read.
 */
export function idProblem(v: unknown, what = "the id"): string | undefined {
  if (asId(v) !== undefined) return undefined;
  if (v === undefined) return `${what} is missing`;
  return `${what} is ${shownValue(v)}, not an id (${ID_RULE})`;
}
