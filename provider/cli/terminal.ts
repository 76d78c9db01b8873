/**
 * Text for the terminal. What the CLI prints to stderr can hold server values (zone names, error
 * messages); a control character in them could move the cursor, clear the screen or start a new line
 * that looks like one of our `pulumi config set` commands. They are shown escaped instead (`\u001b`).
 */

/**
 * C0 controls (line feed included), DEL and C1 controls (U+009B is a one-character CSI), the line and
 * paragraph separators, and the bidirectional formatting characters, which reorder how a line reads
 * (CVE-2021-42574, "Trojan Source").
 */
// eslint-disable-next-line no-control-regex -- the control characters are what this matches
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** `s` with each unprintable character written as its `\uXXXX` escape; everything else is unchanged. */
export function printable(s: string): string {
  return s.replace(UNPRINTABLE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/**
 * The start of a value that may be huge or hostile, for a message: at most `max` UTF-16 units
 * (never half a surrogate pair), printable, double-quoted, with its length when it was cut.
 * Only the start is read, so a 20 MB name costs no more than a short one.
 */
export function preview(s: string, max = 40): string {
  if (s.length <= max) return `"${printable(s)}"`;
  let head = s.slice(0, max);
  if (/[\uD800-\uDBFF]$/.test(head)) head = head.slice(0, -1);
  return `"${printable(head)}"... (${s.length} UTF-16 units)`;
}
