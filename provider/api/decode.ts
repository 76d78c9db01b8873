/**
 * Decodes XML-RPC methodResponse documents in one pass over the text. It replaces the `xmlrpc`
 * package's sax-based Deserializer, which spent about 75% of a 10,000-row report's client time
 * in sax events (tests/bench/client.js, docs/performance.md). Values come out as that
 * Deserializer gave them where they were exact: int, i4 and double as numbers, i8 as its decimal
 * text (64 bits do not fit a JS number), boolean, string, untyped `<value>` text, `nil` as null,
 * arrays and structs. Where the package was not exact this decoder keeps the text or refuses
 * (docs/client.md, "What the decoder refuses"): an int beyond 2^53 is its decimal text, as i8
 * is; base64 is its base64 text (the package decoded any text to bytes, garbage included);
 * dateTime.iso8601 is the exact text sent, never a Date (the package read
 * `2026-01-21T10:00:00+05:00` in the machine's time zone and lost the offset); a member named
 * `__proto__` is data; arrays and structs nested deeper than MAX_NESTING are an error, not a
 * stack overflow. Unlike sax's lenient mode it is strict where XML is: unknown entities, a
 * stray `&`, text between structural tags, unknown tags and DOCTYPEs are errors. CDATA,
 * comments, processing instructions, the five XML entities, character references and
 * namespace prefixes (`ex:nil`, `ex:i8`, as Apache XML-RPC writes them) are understood.
 */

import {
  CLOSE_TAGS,
  decodeCharData,
  endOfTag,
  isBlank,
  isSpace,
  nameAt,
  normalizeNewlines,
  type Failing,
} from "./xmlText";

// The package's ISO 8601 parser, to check that a dateTime value is one.

const DateFormatter: { decodeIso8601(text: string): Date } = require("xmlrpc/lib/date_formatter");

/** A decoded methodResponse: its one value, or the fault's code and string as sent. */
export type DecodedResponse =
  { kind: "value"; value: unknown } | { kind: "fault"; faultCode: unknown; faultString: unknown };

/** The document is not a well-formed XML-RPC methodResponse. */
export class XmlRpcDecodeError extends Error {}

const OPEN = 1;
const CLOSE = 2;
const EMPTY = 3; // <tag/>

const INT = /^[+-]?\d+$/;
/** Base64 text once whitespace is removed: the alphabet, then at most two `=`. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * How deep arrays and structs may nest in an answer. The API's answers nest three levels at
 * most (a list of rows of fields); the limit keeps a hostile or broken answer from overflowing
 * the stack (about 2,300 levels did) and is documented in docs/client.md.
 */
export const MAX_NESTING = 64;
const DOUBLE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

class Reader implements Failing {
  private i = 0;
  /** The last tag read by `tag()`. */
  private kind = 0;
  private name = "";
  /** Member names by position in the last struct read (see memberName). */
  private readonly lastNames: (string | undefined)[] = [];
  /** Arrays and structs open around the current position. */
  private depth = 0;

  constructor(private readonly s: string) {
    if (s.charCodeAt(0) === 0xfeff) this.i = 1;
  }

  fail(message: string): never {
    throw new XmlRpcDecodeError(`${message} (at character ${this.i})`);
  }

  /** The whole document: prolog, `<methodResponse>`, then nothing but whitespace, comments and PIs. */
  document(): DecodedResponse {
    this.skipMisc();
    if (this.expectOpen("methodresponse", "the document to start with <methodResponse>") !== OPEN)
      this.unexpected("<methodResponse> with content");
    this.skipMisc();
    const k = this.tag();
    const n = this.name;
    let out: DecodedResponse;
    if (n === "params" && k !== CLOSE) out = { kind: "value", value: k === EMPTY ? undefined : this.params() };
    else if (n === "fault" && k === OPEN) out = this.fault();
    else return this.unexpected("<params> or <fault>");
    this.skipMisc();
    this.expectClose("methodresponse");
    this.skipMisc();
    if (this.i < this.s.length) this.fail("content after </methodResponse>");
    return out;
  }

  /** After `<params>`: zero params (undefined, as the xmlrpc package gave) or exactly one. */
  private params(): unknown {
    let value: unknown;
    let count = 0;
    for (;;) {
      this.skipMisc();
      const k = this.tag();
      const n = this.name;
      if (k === CLOSE && n === "params") return value;
      if (n !== "param" || k !== OPEN) return this.unexpected("<param>");
      if (++count > 1) this.fail("response has more than one param");
      this.skipMisc();
      value = this.expectOpen("value", "<value> in <param>") === EMPTY ? "" : this.value();
      this.skipMisc();
      this.expectClose("param");
    }
  }

  /** After `<fault>`: a struct value with faultCode and faultString. */
  private fault(): DecodedResponse {
    this.skipMisc();
    const v = this.expectOpen("value", "<value> in <fault>") === EMPTY ? "" : this.value();
    this.skipMisc();
    this.expectClose("fault");
    if (typeof v !== "object" || v === null || Array.isArray(v) || v instanceof Date || Buffer.isBuffer(v))
      this.fail("the fault is not a struct");
    const f = v as Record<string, unknown>;
    return { kind: "fault", faultCode: f.faultCode, faultString: f.faultString };
  }

  /** After `<value>`: a typed value, or the text itself when no type is given. */
  private value(): unknown {
    const text = this.text();
    const k = this.tag();
    const n = this.name;
    if (k === CLOSE && n === "value") return text;
    if (k === CLOSE) return this.unexpected("a type or </value>");
    if (!isBlank(text)) this.fail(`text before <${n}> in <value>`);
    const v = this.typed(n, k === EMPTY);
    if (!this.eat("</value>")) {
      this.skipMisc();
      this.expectClose("value");
    }
    return v;
  }

  private typed(type: string, empty: boolean): unknown {
    switch (type) {
      case "string":
        return empty ? "" : this.leaf(type);
      case "int":
      case "i4": {
        const t = empty ? "" : this.leaf(type).trim();
        if (!INT.test(t)) this.fail(`expected an integer in <${type}>, got '${t.slice(0, 40)}'`);
        const n = Number(t);
        // Beyond 2^53 a number would round: the exact text instead, as for i8 (ids and counts refuse it in normalize.ts).
        return Number.isSafeInteger(n) ? n : t;
      }
      case "i8": {
        const t = empty ? "" : this.leaf(type).trim();
        if (!INT.test(t)) this.fail(`expected an integer in <i8>, got '${t.slice(0, 40)}'`);
        return t;
      }
      case "double":
        return this.double(empty ? "" : this.leaf(type).trim());
      case "boolean": {
        const t = empty ? "" : this.leaf(type).trim();
        if (t === "1") return true;
        if (t === "0") return false;
        return this.fail(`expected 0 or 1 in <boolean>, got '${t.slice(0, 40)}'`);
      }
      case "nil":
        if (!empty && !isBlank(this.leaf(type))) this.fail("text in <nil>");
        return null;
      case "base64": {
        // The text itself (whitespace is not part of base64): decoding is the caller's choice, and
        // text that is not base64 is refused rather than decoded to bytes it does not hold.
        const t = empty ? "" : this.leaf(type).replace(/[ \t\r\n]+/g, "");
        if (!BASE64.test(t) || t.length % 4 === 1 || (t.endsWith("=") && t.length % 4 !== 0))
          this.fail(`expected base64 text in <base64>, got '${t.slice(0, 40)}'`);
        return t;
      }
      case "datetime.iso8601": {
        const t = empty ? "" : this.leaf(type).trim();
        let ok: boolean;
        try {
          ok = !Number.isNaN(DateFormatter.decodeIso8601(t).getTime());
        } catch {
          ok = false;
        }
        // The text itself, offset and all: a Date would be shifted into the machine's time zone.
        return ok ? t : this.fail(`expected an ISO 8601 date in <dateTime.iso8601>, got '${t.slice(0, 40)}'`);
      }
      case "struct":
      case "array": {
        if (empty) return type === "struct" ? {} : [];
        if (++this.depth > MAX_NESTING) this.fail(`arrays and structs nested deeper than ${MAX_NESTING} levels`);
        const v = type === "struct" ? this.struct() : this.array();
        this.depth--;
        return v;
      }
      default:
        return this.fail(`unknown XML-RPC type <${type}>`);
    }
  }

  private double(t: string): number {
    if (DOUBLE.test(t)) return Number(t);
    // Python's xmlrpc.client writes repr(float): inf, -inf, nan.
    if (/^[+-]?inf(inity)?$/i.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
    if (/^[+-]?nan$/i.test(t)) return NaN;
    return this.fail(`expected a number in <double>, got '${t.slice(0, 40)}'`);
  }

  private struct(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    let position = 0;
    for (;;) {
      // Fast paths (eat) for the usual markup; the general ones accept comments, prefixes, case.
      if (!this.eat("<member>")) {
        if (this.eat("</struct>")) return out;
        this.skipMisc();
        const k = this.tag();
        const n = this.name;
        if (k === CLOSE && n === "struct") return out;
        if (n !== "member" || k !== OPEN) return this.unexpected("<member> or </struct>");
      }
      let key: string;
      if (this.eat("<name>")) key = this.memberName(position++);
      else {
        this.skipMisc();
        key = this.expectOpen("name", "<name> in <member>") === EMPTY ? "" : this.memberName(position++);
      }
      let v: unknown;
      if (this.eat("<value>")) v = this.value();
      else {
        this.skipMisc();
        v = this.expectOpen("value", "<value> in <member>") === EMPTY ? "" : this.value();
      }
      if (!this.eat("</member>")) {
        this.skipMisc();
        this.expectClose("member");
      }
      // A member named __proto__ is data, not the object's prototype.
      if (key === "__proto__")
        Object.defineProperty(out, key, { value: v, enumerable: true, writable: true, configurable: true });
      else out[key] = v;
    }
  }

  private array(): unknown[] {
    const out: unknown[] = [];
    this.skipMisc();
    const k = this.tag();
    const first: string = this.name;
    if (k === CLOSE && first === "array") return out; // <array></array>, tolerated
    if (first !== "data" || k === CLOSE) return this.unexpected("<data> in <array>");
    if (k === OPEN) {
      for (;;) {
        if (this.eat("<value>")) {
          out.push(this.value());
          continue;
        }
        if (this.eat("</data>")) break;
        this.skipMisc();
        const kv = this.tag();
        const n: string = this.name;
        if (kv === CLOSE && n === "data") break;
        if (n !== "value" || kv === CLOSE) return this.unexpected("<value> or </data>");
        out.push(kv === EMPTY ? "" : this.value());
      }
    }
    this.skipMisc();
    this.expectClose("array");
    return out;
  }

  /**
   * After `<name>`: the member's name. Rows of a list repeat the same names in the same order,
   * so the name at this position in the previous struct is tried in place first: a hit costs
   * no slice and no string hashing.
   */
  private memberName(position: number): string {
    const s = this.s;
    const last = this.lastNames[position];
    if (last !== undefined && s.startsWith(last, this.i) && s.startsWith("</name>", this.i + last.length)) {
      this.i += last.length + 7;
      return last;
    }
    const name = this.leaf("name");
    // Only names whose text is their own markup (no entity, CR or CDATA) can be matched in place.
    if (position < 64 && !/[&\r<]/.test(name) && s.startsWith(`${name}</name>`, this.i - 7 - name.length))
      this.lastNames[position] = name;
    return name;
  }

  /** Text content up to `</type>`; no element may appear inside. */
  private leaf(type: string): string {
    const t = this.text();
    const close = CLOSE_TAGS[type];
    if (close !== undefined && this.s.startsWith(close, this.i)) this.i += close.length;
    else if (this.tag() !== CLOSE || this.name !== type) this.unexpected(`</${type}>`);
    return t;
  }

  /** Skips whitespace and consumes `literal` when it comes next; otherwise moves nothing. */
  private eat(literal: string): boolean {
    const s = this.s;
    let i = this.i;
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    if (!s.startsWith(literal, i)) return false;
    this.i = i + literal.length;
    return true;
  }

  /** Reads a start tag (or `<name/>`) of `name`; returns OPEN or EMPTY. */
  private expectOpen(name: string, what: string): number {
    const k = this.tag();
    if (this.name !== name || k === CLOSE) this.unexpected(what);
    return k;
  }

  private expectClose(name: string): void {
    if (this.tag() !== CLOSE || this.name !== name) this.unexpected(`</${name}>`);
  }

  private unexpected(what: string): never {
    const seen =
      this.kind === 0
        ? "the end of the document"
        : `<${this.kind === CLOSE ? "/" : ""}${this.name}${this.kind === EMPTY ? "/" : ""}>`;
    return this.fail(`expected ${what}, found ${seen}`);
  }

  /** Skips whitespace, comments and processing instructions; any other text is an error. */
  private skipMisc(): void {
    const s = this.s;
    for (;;) {
      while (this.i < s.length && isSpace(s.charCodeAt(this.i))) this.i++;
      if (this.i >= s.length) return;
      if (s.charCodeAt(this.i) !== 0x3c /* < */) this.fail("unexpected text between tags");
      const c = s.charCodeAt(this.i + 1);
      if (c === 0x3f /* ? */) this.skipPast("?>", "processing instruction");
      else if (c === 0x21 /* ! */) {
        if (s.startsWith("<!--", this.i)) this.skipPast("-->", "comment");
        else
          this.fail(
            s.startsWith("<!DOCTYPE", this.i)
              ? "a DOCTYPE is not allowed in XML-RPC"
              : "unexpected markup between tags",
          );
      } else return;
    }
  }

  private skipPast(end: string, what: string): void {
    const j = this.s.indexOf(end, this.i + 2);
    if (j < 0) this.fail(`unterminated ${what}`);
    this.i = j + end.length;
  }

  /** Character data up to the next tag: entities decoded, CDATA sections kept, comments and PIs dropped. */
  private text(): string {
    const s = this.s;
    let out = "";
    for (;;) {
      const lt = s.indexOf("<", this.i);
      if (lt < 0) {
        this.i = s.length;
        return this.fail("unexpected end of the document");
      }
      if (lt > this.i) out += decodeCharData(s.slice(this.i, lt), this);
      const c = s.charCodeAt(lt + 1);
      if (c === 0x21 /* ! */) {
        if (s.startsWith("<![CDATA[", lt)) {
          const end = s.indexOf("]]>", lt + 9);
          if (end < 0) {
            this.i = lt;
            return this.fail("unterminated CDATA section");
          }
          out += normalizeNewlines(s.slice(lt + 9, end));
          this.i = end + 3;
          continue;
        }
        if (s.startsWith("<!--", lt)) {
          this.i = lt;
          this.skipPast("-->", "comment");
          continue;
        }
        this.i = lt;
        return this.fail("unexpected markup in text");
      }
      if (c === 0x3f /* ? */) {
        this.i = lt;
        this.skipPast("?>", "processing instruction");
        continue;
      }
      this.i = lt;
      return out;
    }
  }

  /** Reads the tag at the current `<` into `kind` and `name`; returns the kind. */
  private tag(): number {
    const s = this.s;
    if (this.i >= s.length) {
      this.kind = 0;
      this.name = "";
      this.fail("unexpected end of the document");
    }
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
    if (gt < 0 || j === a) {
      this.kind = 0;
      this.name = "";
      this.fail(gt < 0 ? "unexpected end of the document inside a tag" : "a tag without a name");
    }
    // Attributes are ignored; a quoted one may hold '>'.
    if (gt > j && !close) gt = endOfTag(s, j, this);
    this.name = nameAt(s, a, j, lowercase);
    this.kind = close ? CLOSE : s.charCodeAt(gt - 1) === 0x2f && gt - 1 >= j ? EMPTY : OPEN;
    this.i = gt + 1;
    return this.kind;
  }
}

/** Decodes a methodResponse document; throws XmlRpcDecodeError when it is not one. */
export function decodeMethodResponse(xml: string): DecodedResponse {
  return new Reader(xml).document();
}
