/**
 * The character level of the XML-RPC decoder (decode.ts): tag names recognised in place, XML
 * whitespace, end-of-line handling, entities and character references. Split from the decoder's
 * structure so each file has one concern; the functions are as fast as they were inline (they
 * take the reader only to report an error at its position).
 */

/** What reports a decoding error at the current position (the decoder's reader). */
export interface Failing {
  fail(message: string): never;
}

/** The element names of XML-RPC, in canonical form (lowercase, no namespace prefix). */
const NAMES = [
  "methodresponse",
  "params",
  "param",
  "fault",
  "value",
  "struct",
  "member",
  "name",
  "array",
  "data",
  "string",
  "int",
  "i4",
  "i8",
  "double",
  "boolean",
  "base64",
  "datetime.iso8601",
  "nil",
];
/** NAMES by length, so a name is recognised in place without slicing (slicing and hashing cost a third of decoding). */
const BY_LENGTH: string[][] = [];
for (const n of NAMES) (BY_LENGTH[n.length] ??= []).push(n);

/**
 * The canonical name of the tag name at `s[a..end)`: one of NAMES when it is one (compared in
 * place when it is already lowercase), else the lowercased name without its prefix.
 */
export function nameAt(s: string, a: number, end: number, lowercase: boolean): string {
  if (lowercase) {
    const candidates = BY_LENGTH[end - a];
    if (candidates) for (const n of candidates) if (s.startsWith(n, a)) return n;
  }
  const raw = s.slice(a, end);
  const colon = raw.lastIndexOf(":");
  const bare = (colon >= 0 ? raw.slice(colon + 1) : raw).toLowerCase();
  return NAMES.find((n) => n === bare) ?? bare;
}

/** `</name>` of each canonical name, for the fast path of leaf(). */
export const CLOSE_TAGS: Record<string, string> = Object.fromEntries(NAMES.map((n) => [n, `</${n}>`]));

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** Whether a code point is a `Char` of XML 1.0 (what a character reference may name). */
function isXmlChar(c: number): boolean {
  return (
    c === 0x9 ||
    c === 0xa ||
    c === 0xd ||
    (c >= 0x20 && c <= 0xd7ff) ||
    (c >= 0xe000 && c <= 0xfffd) ||
    (c >= 0x10000 && c <= 0x10ffff)
  );
}

export function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

/** The index of the `>` ending a start tag whose attributes begin at `j`, skipping quoted values. */
export function endOfTag(s: string, j: number, r: Failing): number {
  let quote = 0;
  for (let k = j; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === 0x22 || c === 0x27) quote = c;
    else if (c === 0x3e) return k;
  }
  return r.fail("unexpected end of the document inside a tag");
}

/** XML end-of-line handling: CR LF and lone CR become LF (literal ones only, not &#13;). */
export function normalizeNewlines(t: string): string {
  return t.indexOf("\r") < 0 ? t : t.replace(/\r\n?/g, "\n");
}

/** Decodes the entities of character data; an unknown entity or a stray `&` is an error. */
export function decodeCharData(raw: string, r: Failing): string {
  const t = normalizeNewlines(raw);
  let amp = t.indexOf("&");
  if (amp < 0) return t;
  let out = "";
  let from = 0;
  while (amp >= 0) {
    const semi = t.indexOf(";", amp + 1);
    if (semi < 0 || semi - amp > 12) r.fail("'&' that does not start an entity");
    const ref = t.slice(amp + 1, semi);
    let ch: string | undefined;
    if (ref.charCodeAt(0) === 0x23 /* # */) {
      const code =
        ref[1] === "x"
          ? /^x[0-9a-fA-F]+$/.test(ref.slice(1))
            ? parseInt(ref.slice(2), 16)
            : NaN
          : /^\d+$/.test(ref.slice(1))
            ? parseInt(ref.slice(1), 10)
            : NaN;
      if (!isXmlChar(code)) r.fail(`'&${ref};' is not a valid character reference`);
      ch = String.fromCodePoint(code);
    } else {
      ch = ENTITIES[ref];
      if (ch === undefined) r.fail(`unknown entity '&${ref.slice(0, 12)};'`);
    }
    out += t.slice(from, amp) + ch;
    from = semi + 1;
    amp = t.indexOf("&", from);
  }
  return out + t.slice(from);
}
