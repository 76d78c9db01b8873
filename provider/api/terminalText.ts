/**
 * Text for a terminal. Messages of this package reach a user's terminal through `pulumi`, which prints
 * diagnostics as they are, and through `cdn-zones` and `cdn-emulator`. Much of what they say was not
 * written here: a server's fault strings and error strings, zone fields read back from listZones, values
 * a user declared, what a server echoes of them. A control character in such text could clear the screen,
 * set the window title, forge a hyperlink or draw a line that looks like one of ours; so every such
 * character is shown escaped (`\u001b`) instead. The one rule, used by every message (docs/reliability.md).
 */

/**
 * C0 controls (line feed included), DEL and C1 controls (U+009B is a one-character CSI), the line and
 * paragraph separators, and the bidirectional formatting characters, which reorder how a line reads
 * (CVE-2021-42574, "Trojan Source"): the embeddings and overrides U+202A-U+202E, the isolates
 * U+2066-U+2069, and the marks U+200E, U+200F, U+061C.
 */
// eslint-disable-next-line no-control-regex -- the control characters are what this matches
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
const UNPRINTABLE_BUT_LF =
  // eslint-disable-next-line no-control-regex -- the same set without the line feed
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex -- the same set, to test without replacing
const ANY_UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

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

/**
 * The same, keeping line feeds: for a whole message of ours that may hold several lines (each part
 * taken from elsewhere was made {@link printable} where it was put in, so a line feed here is ours).
 * Used where messages leave the package, as the last line of defence.
 */
export function printableLines(s: string): string {
  return String(s).replace(UNPRINTABLE_BUT_LF, escape);
}

/** Whether `s` holds a character {@link printable} would escape. */
export function hasUnprintable(s: string): boolean {
  return ANY_UNPRINTABLE.test(s);
}

/**
 * The first character of `s` that {@link printable} would escape, as `U+XXXX`, or undefined: for
 * validation messages that name the character without printing it.
 */
export function unprintableChar(s: string): string | undefined {
  const m = ANY_UNPRINTABLE.exec(s);
  return m ? `U+${m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}` : undefined;
}

/**
 * The start of a value that may be huge or hostile, for a message: at most `max` UTF-16 units
 * (never half a surrogate pair), printable, double-quoted, with its length when it was cut.
 * Only the start is read, so a 20 MB name costs no more than a short one.
 */
export function preview(s: string, max = 40): string {
  return s.length <= max ? `"${printable(s)}"` : `"${printable(head(s, max))}"... (${s.length} UTF-16 units)`;
}
