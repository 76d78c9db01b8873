/**
 * The XML level of the codec: a scanner over one document (tags by canonical name, character data with entities,
 * CDATA; comments and PIs skipped), the characters XML 1.0 forbids, strict UTF-8. Names are matched in place,
 * without slicing: the decoder's measured speed.
 */

/** The document is not a well-formed XML-RPC methodResponse (or methodCall). */
export class XmlRpcDecodeError extends Error {}

/** What `Scanner.tag` read: a start tag, an end tag, or an empty-element tag `<tag/>`. */
export const OPEN = 1;
export const CLOSE = 2;
export const EMPTY = 3;

/** The element names of XML-RPC, in canonical form (lowercase, no namespace prefix). */
const NAMES = (
  "methodresponse methodcall methodname params param fault value struct member name array data " +
  "string int i4 i8 double boolean base64 datetime.iso8601 nil"
).split(" ");
/** NAMES by length, so a name is recognised in place without slicing (slicing and hashing cost a third of decoding). */
const BY_LENGTH: string[][] = [];
for (const n of NAMES) (BY_LENGTH[n.length] ??= []).push(n);

/**
 * The canonical name of the tag name at `s[a..end)`: one of NAMES when it is one (compared in
 * place when it is already lowercase), else the lowercased name without its prefix.
 */
function nameAt(s: string, a: number, end: number, lowercase: boolean): string {
  if (lowercase) {
    const candidates = BY_LENGTH[end - a];
    if (candidates) for (const n of candidates) if (s.startsWith(n, a)) return n;
  }
  const raw = s.slice(a, end);
  const colon = raw.lastIndexOf(":");
  const bare = (colon >= 0 ? raw.slice(colon + 1) : raw).toLowerCase();
  return NAMES.find((n) => n === bare) ?? bare;
}

/** `<name>` and `</name>` of each canonical name, for the fast paths of `opening`, `closing` and `leaf`. */
const OPEN_TAGS: Record<string, string> = Object.fromEntries(NAMES.map((n) => [n, `<${n}>`]));
const CLOSE_TAGS: Record<string, string> = Object.fromEntries(NAMES.map((n) => [n, `</${n}>`]));

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
}

export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

/** The index of the `>` ending a start tag whose attributes begin at `j`, skipping quoted values. */
function endOfTag(s: string, j: number, r: Scanner): number {
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
function normalizeNewlines(t: string): string {
  return t.indexOf("\r") < 0 ? t : t.replace(/\r\n?/g, "\n");
}

/**
 * Decodes the entities of character data; an unknown entity, a stray `&` or a reference to a
 * character XML forbids is an error (the last worded as the emulator's PARSE_ERROR has it).
 */
function decodeCharData(raw: string, r: Scanner): string {
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
      const hex = ref[1] === "x";
      const digits = ref.slice(hex ? 2 : 1);
      const code = (hex ? /^[0-9a-fA-F]+$/ : /^\d+$/).test(digits) ? parseInt(digits, hex ? 16 : 10) : NaN;
      if (!(code <= 0x10ffff)) r.fail(`'&${ref};' is not a valid character reference`);
      ch = String.fromCodePoint(code);
      const bad = forbiddenXmlChar(ch);
      if (bad) r.fail(forbiddenMessage(bad), false);
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

/** Reads one document: the position, the last tag read, and the steps of reading that XML-RPC's grammar needs. */
export class Scanner {
  protected i = 0;
  /** The last tag read by `tag()`. */
  protected kind = 0;
  protected name = "";

  constructor(protected readonly s: string) {
    if (s.charCodeAt(0) === 0xfeff) this.i = 1;
  }

  /** Throws an XmlRpcDecodeError; `at: false` leaves the position out of the message. */
  fail(message: string, at = true): never {
    throw new XmlRpcDecodeError(at ? `${message} (at character ${this.i})` : message);
  }

  /** Text content up to `</type>`; no element may appear inside. */
  protected leaf(type: string): string {
    const t = this.text();
    this.closing(type);
    return t;
  }

  /** Skips whitespace and consumes `literal` when it comes next; otherwise moves nothing. */
  protected eat(literal: string): boolean {
    const s = this.s;
    let i = this.i;
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    if (!s.startsWith(literal, i)) return false;
    this.i = i + literal.length;
    return true;
  }

  /** Reads a start tag (or `<name/>`) of `name`; returns OPEN or EMPTY. */
  protected expectOpen(name: string, what: string): number {
    const k = this.tag();
    if (this.name !== name || k === CLOSE) this.unexpected(what);
    return k;
  }

  /** `<name>` or `<name/>` (OPEN or EMPTY) past whitespace, comments and PIs; the usual markup is matched in place. */
  protected opening(name: string, what: string): number {
    if (this.eat(OPEN_TAGS[name])) return OPEN;
    this.skipMisc();
    return this.expectOpen(name, what);
  }

  /** `</name>` past whitespace, comments and PIs; the usual markup is matched in place. */
  protected closing(name: string): void {
    if (this.eat(CLOSE_TAGS[name])) return;
    this.skipMisc();
    if (this.tag() !== CLOSE || this.name !== name) this.unexpected(`</${name}>`);
  }

  protected seen(): string {
    if (this.kind === 0) return "the end of the document";
    return `<${this.kind === CLOSE ? "/" : ""}${this.name}${this.kind === EMPTY ? "/" : ""}>`;
  }

  protected unexpected(what: string): never {
    return this.fail(`expected ${what}, found ${this.seen()}`);
  }

  /** Skips whitespace, comments and processing instructions; any other text is an error. */
  protected skipMisc(): void {
    const s = this.s;
    for (;;) {
      while (this.i < s.length && isSpace(s.charCodeAt(this.i))) this.i++;
      if (this.i >= s.length) return;
      if (s.charCodeAt(this.i) !== 0x3c /* < */) this.fail("unexpected text between tags");
      const c = s.charCodeAt(this.i + 1);
      if (c === 0x3f /* ? */) this.skipPast("?>", "processing instruction");
      else if (c !== 0x21 /* ! */) return;
      else if (s.startsWith("<!--", this.i)) this.skipPast("-->", "comment");
      else if (s.startsWith("<!DOCTYPE", this.i)) this.fail("a DOCTYPE is not allowed in XML-RPC");
      else this.fail("unexpected markup between tags");
    }
  }

  protected skipPast(end: string, what: string): void {
    const j = this.s.indexOf(end, this.i + 2);
    if (j < 0) this.fail(`unterminated ${what}`);
    this.i = j + end.length;
  }

  /** Character data up to the next tag: entities decoded, CDATA sections kept, comments and PIs dropped. */
  protected text(): string {
    const s = this.s;
    let out = "";
    for (;;) {
      const lt = s.indexOf("<", this.i);
      if (lt < 0) {
        this.i = s.length;
        return this.fail("unexpected end of the document");
      }
      if (lt > this.i) out += decodeCharData(s.slice(this.i, lt), this);
      this.i = lt;
      const c = s.charCodeAt(lt + 1);
      if (c === 0x3f /* ? */) this.skipPast("?>", "processing instruction");
      else if (c !== 0x21 /* ! */) return out;
      else if (s.startsWith("<!--", lt)) this.skipPast("-->", "comment");
      else if (!s.startsWith("<![CDATA[", lt)) return this.fail("unexpected markup in text");
      else {
        const end = s.indexOf("]]>", lt + 9);
        if (end < 0) return this.fail("unterminated CDATA section");
        out += normalizeNewlines(s.slice(lt + 9, end));
        this.i = end + 3;
      }
    }
  }

  /** Reads the tag at the current `<` into `kind` and `name`; returns the kind. */
  protected tag(): number {
    const s = this.s;
    if (this.i >= s.length) this.fail("unexpected end of the document");
    const start = this.i;
    const close = s.charCodeAt(start + 1) === 0x2f; /* / */
    const a = close ? start + 2 : start + 1;
    let j = a;
    let lowercase = true;
    while (j < s.length) {
      const c = s.charCodeAt(j);
      if (c === 0x3e /* > */ || c === 0x2f /* / */ || isSpace(c)) break;
      if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2e)) lowercase = false;
      j++;
    }
    let gt = s.charCodeAt(j) === 0x3e ? j : s.indexOf(">", j);
    if (gt < 0 || j === a) this.fail(gt < 0 ? "unexpected end of the document inside a tag" : "a tag without a name");
    // Attributes are ignored; a quoted one may hold '>'.
    if (gt > j && !close) gt = endOfTag(s, j, this);
    this.name = nameAt(s, a, j, lowercase);
    this.kind = close ? CLOSE : s.charCodeAt(gt - 1) === 0x2f && gt - 1 >= j ? EMPTY : OPEN;
    this.i = gt + 1;
    return this.kind;
  }
}

/**
 * Characters XML 1.0 does not allow (§2.2: C0 controls but tab, LF and CR; U+FFFE, U+FFFF; lone surrogates), which
 * standard clients cannot parse: the client refuses to send one, the emulator to take one.
 */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- the control characters are what this matches
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The first character of `text` that XML forbids, as `U+XXXX`, or undefined when there is none. */
export function forbiddenXmlChar(text: string): string | undefined {
  const match = FORBIDDEN.exec(text);
  return match ? `U+${match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}` : undefined;
}

/** Whether a string can travel in an XML-RPC document unchanged. */
export function isXmlSafe(s: string): boolean {
  return !FORBIDDEN.test(s);
}

/** The message for a document holding `char` (`U+XXXX`), raw or as a character reference. */
export function forbiddenMessage(char: string): string {
  return `the document holds ${char}, a character XML 1.0 does not allow (standard clients could not read it back)`;
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A body or data file as strict UTF-8: undefined for bytes that are not, never U+FFFD in place of a value's bytes. */
export function decodeUtf8(bytes: Uint8Array): string | undefined {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}
