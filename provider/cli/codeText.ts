/**
 * Server text in the generated program. Every value the API returned (names, ids, listed fields)
 * reaches the program's source through `literal`, in string literals and comments alike, so no
 * value can end a string or a comment and become code.
 */

/**
 * The line terminators JSON leaves raw: JavaScript ends a `//` comment at them as at `\n`
 * (ECMA-262, "Line Terminators"), and tools older than ES2019 refuse them inside a string.
 */
const RAW_IN_JSON = /[\u2028\u2029]/g;

/**
 * `s` as a double-quoted TypeScript string literal, on one line: JSON's escapes (quotes, backslash,
 * every C0 control, lone surrogates) plus U+2028 and U+2029. A backtick, `${` or `*` + `/` means nothing
 * inside double quotes.
 */
export function literal(s: string): string {
  return JSON.stringify(s).replace(RAW_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/** A `//` comment holding `text` on one line: the text is escaped as `literal` escapes it, without the quotes. */
export function comment(text: string): string {
  return `// ${literal(text).slice(1, -1)}`;
}
