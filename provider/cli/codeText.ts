/**
 * Server text in the generated program. Every value the API returned (names, ids, listed fields)
 * reaches the program's source through `literal`, in string literals and comments alike, so no
 * value can end a string or a comment and become code.
 */
import { printable } from "../api/terminalText";

/**
 * `s` as a double-quoted TypeScript string literal, on one line: JSON's escapes (quotes, backslash,
 * every C0 control, lone surrogates), then the terminal rule's (api/terminalText.ts) for what JSON leaves
 * raw: DEL, C1 controls, U+2028 and U+2029 (JavaScript ends a `//` comment at them, ECMA-262 "Line
 * Terminators"), and the bidirectional formatting characters, which reorder how a line of code reads
 * ("Trojan Source"). A backtick, `${` or `*` + `/` means nothing inside double quotes.
 */
export function literal(s: string): string {
  return printable(JSON.stringify(s));
}

/** A `//` comment holding `text` on one line: the text is escaped as `literal` escapes it, without the quotes. */
export function comment(text: string): string {
  return `// ${literal(text).slice(1, -1)}`;
}
