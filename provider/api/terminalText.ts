/**
 * Text for a terminal: messages reach one through `pulumi`, `cdn-zones` and `cdn-emulator`, and much of what they
 * say comes from servers and users. A control character there could clear the screen or forge a line, so each is
 * shown escaped (`\u001b`): the one rule of every message (docs/reliability.md).
 */

/** C0 (LF included), DEL and C1 controls, line and paragraph separators, bidi formatting (CVE-2021-42574). */
const SET =
  "\\u0000-\\u0009\\u000b-\\u001f\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069";
const UNPRINTABLE = new RegExp(`[\\u000a${SET}]`, "g");
const UNPRINTABLE_BUT_LF = new RegExp(`[${SET}]`, "g");
const ANY_UNPRINTABLE = new RegExp(`[\\u000a${SET}]`);

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * `s` with each unprintable character written as its `\uXXXX` escape; everything else is unchanged. Longer than
 * `max` UTF-16 units, it is cut there (never in a surrogate pair) and its length said: a value a message shows.
 */
export function printable(s: string, max = Infinity): string {
  const text = String(s);
  if (text.length <= max) return text.replace(UNPRINTABLE, escape);
  return `${printable(head(text, max))}... (${text.length} UTF-16 units)`;
}

/** The first `max` UTF-16 units of `s`, one fewer where that would split a surrogate pair. */
const head = (s: string, max: number) => s.slice(0, /[\uD800-\uDBFF]/.test(s[max - 1] ?? "") ? max - 1 : max);

/** {@link printable} keeping line feeds: for a whole message of ours, where it leaves the package (last defence). */
export function printableLines(s: string): string {
  return String(s).replace(UNPRINTABLE_BUT_LF, escape);
}

/** The first character of `s` that {@link printable} would escape, as `U+XXXX`, or undefined. */
export function unprintableChar(s: string): string | undefined {
  const m = ANY_UNPRINTABLE.exec(s);
  return m ? `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}` : undefined;
}

/** The start of a value that may be huge or hostile: at most `max` UTF-16 units, printable, quoted, its length if cut. */
export function preview(s: string, max = 40): string {
  return s.length <= max ? `"${printable(s)}"` : `"${printable(head(s, max))}"... (${s.length} UTF-16 units)`;
}
