/**
 * One rule for ids (of a zone, a user, a company), everywhere they are read: an integer from 1 to 2^31-1, the range
 * of XML-RPC's `<int>` in which the API takes an id back. A refusal names the value as given.
 */

/** The largest 32-bit signed integer: XML-RPC's `<int>`, the largest id, and the longest delay Node's timers take. */
export const INT32_MAX = 2_147_483_647;

const ID_RULE = `ids are integers from 1 to ${INT32_MAX}`;

/** The id `v` holds: a number, or integer text as an `<i8>` or `<string>` brings it; undefined when it holds none. */
export function asId(v: unknown): number | undefined {
  const n = typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v) ? Number(v) : v;
  return typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= INT32_MAX ? n : undefined;
}

/** The value as a message shows it: a number or text as given (text cut at 40 characters), else its kind. */
function shownValue(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "nil";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return v.trim() === "" ? "empty text" : `'${v.trim().slice(0, 40)}'`;
  if (Array.isArray(v)) return "an array";
  return typeof v === "object" ? "a struct" : `a ${typeof v}`;
}

/** Why `v` is not an id, naming it (`the id in row 1 is -5, not an id (...)`); undefined for an id. */
export function idProblem(v: unknown, what = "the id"): string | undefined {
  if (asId(v) !== undefined) return undefined;
  if (v === undefined) return `${what} is missing`;
  return `${what} is ${shownValue(v)}, not an id (${ID_RULE})`;
}
