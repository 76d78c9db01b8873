/**
 * Characters XML 1.0 does not allow (§2.2 of the XML specification: C0 controls other than tab,
 * LF and CR, U+FFFE, U+FFFF and lone surrogates). A string holding one cannot be written into a
 * document that standard clients (Python's xmlrpc.client, the npm `xmlrpc` package) will parse,
 * so the emulator refuses them in requests and in its data file instead of storing them.
 */

// A lone high surrogate, a lone low surrogate, or a forbidden BMP character.
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the control characters are what this matches
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first character of `text` that XML forbids, as `U+XXXX`, or undefined when there is none. */
export function forbiddenXmlChar(text: string): string | undefined {
  const match = FORBIDDEN.exec(text);
  return match ? `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}` : undefined;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * Decodes a request body or a data file as strict UTF-8: bytes that are not UTF-8 give
 * undefined instead of being replaced by U+FFFD (and so silently changing a value).
 */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
