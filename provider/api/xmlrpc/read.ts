/**
 * Reads XML-RPC documents in one pass over the text: the client's methodResponse as plain JS values, the emulator's
 * methodCall as values that keep their wire type. About 18x faster than the `xmlrpc` package's sax-based
 * Deserializer it replaced (tests/bench/client.js, docs/performance.md), and exact where that one was not: an int
 * beyond 2^53 and i8 stay decimal text, base64 and dateTime.iso8601 stay the text sent, `__proto__` is data, nesting
 * is bounded; strict where XML is (docs/client.md, "What the decoder refuses").
 */
import { CLOSE, EMPTY, forbiddenMessage, forbiddenXmlChar, isBlank, OPEN, Scanner, XmlRpcDecodeError } from "./xml";

/** A decoded methodResponse: its one value, or the fault's code and string as sent. */
export type DecodedResponse =
  { kind: "value"; value: unknown } | { kind: "fault"; faultCode: unknown; faultString: unknown };

/** A methodCall's value with its wire type kept: the emulator refuses `<string>5</string>` where the table says int. */
export type WireValue =
  | { readonly t: "int"; readonly v: number }
  | { readonly t: "double"; readonly v: number }
  | { readonly t: "boolean"; readonly v: boolean }
  | { readonly t: "string"; readonly v: string }
  | { readonly t: "datetime"; readonly v: string }
  | { readonly t: "base64"; readonly v: Buffer }
  | { readonly t: "nil" }
  | { readonly t: "array"; readonly v: readonly WireValue[] }
  | { readonly t: "struct"; readonly v: ReadonlyMap<string, WireValue> };

/** A parsed methodCall: the `<methodName>` and the positional `<params>`. */
export interface ParsedCall {
  readonly methodName: string;
  readonly params: readonly WireValue[];
}

/** The wire type's name as a message shows it (`int`, `string`, `struct`...). */
export function wireTypeName(value: WireValue): string {
  return value.t === "datetime" ? "dateTime.iso8601" : value.t;
}

const INT = /^[+-]?\d+$/;
const DOUBLE = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** Base64 text once whitespace is removed: the alphabet, then at most two `=`. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
/** The `xmlrpc` package's ISO 8601 pattern (lib/date_formatter.js, `\.` read as `.` there too), unanchored as it was. */
const ISO8601 =
  /([0-9]{4})(-?([0-9]{2}))(-?([0-9]{2}))(T([0-9]{2})(((:?([0-9]{2}))?((:?([0-9]{2}))?(.([0-9]+))?))?)(Z|([+-]([0-9]{2}(:?([0-9]{2}))?)))?)?/;

/** The types of a value that is text: a string, a number, a boolean, nil, base64 or a date. */
const SCALARS = new Set(["string", "int", "i4", "i8", "double", "boolean", "nil", "base64", "datetime.iso8601"]);

/** How deep arrays and structs may nest (the API's answers: 3 levels), so a hostile document cannot overflow the stack. */
export const MAX_NESTING = 64;

/** Whether the package's Deserializer read `t` as a valid date (docs/client.md: the text is kept, never a Date). */
function isIso8601(t: string): boolean {
  const p = ISO8601.exec(t);
  if (!p) return false;
  const offset = p[17] === undefined ? "Z" : p[17] + (p[19] && p[20] === undefined ? "00" : "");
  const iso = `${p[1]}-${p[3]}-${p[5]}T${p[7] ?? "00"}:${p[11] ?? "00"}:${p[14] ?? "00"}.${p[16] ?? "000"}${offset}`;
  return !Number.isNaN(new Date(iso).getTime());
}

class Reader extends Scanner {
  /** Member names by position in the last struct read (see memberName). */
  private readonly lastNames: (string | undefined)[] = [];
  /** Arrays and structs open around the current position. */
  private depth = 0;

  /** `wire`: values keep their wire type (WireValue), structs are Maps without duplicate names. */
  constructor(
    s: string,
    private readonly wire: boolean,
  ) {
    super(s);
  }

  /** A methodResponse: prolog, `<methodResponse>`, then nothing but whitespace, comments and PIs. */
  response(): DecodedResponse {
    this.root("methodResponse");
    const k = this.tag();
    const n = this.name;
    let out: DecodedResponse;
    if (n === "params" && k !== CLOSE) out = { kind: "value", value: k === EMPTY ? undefined : this.params(true)[0] };
    else if (n === "fault" && k === OPEN) out = this.fault();
    else return this.unexpected("<params> or <fault>");
    this.closing("methodresponse");
    this.end();
    return out;
  }

  /** A methodCall: its `<methodName>`, then `<params>` (which may be empty or left out). */
  call(): ParsedCall {
    this.root("methodCall");
    const methodName = this.expectOpen("methodname", "<methodName>") === EMPTY ? "" : this.leaf("methodname").trim();
    if (!methodName) this.fail("<methodCall> without a <methodName>");
    this.skipMisc();
    let k = this.tag();
    let params: WireValue[] = [];
    if (this.name === "params" && k !== CLOSE) {
      if (k === OPEN) params = this.params(false) as WireValue[];
      this.skipMisc();
      k = this.tag();
    }
    if (k !== CLOSE || this.name !== "methodcall") this.unexpected("<params> or </methodCall>");
    this.end();
    return { methodName, params };
  }

  private root(name: string): void {
    this.skipMisc();
    const k = this.tag();
    if (k !== OPEN || this.name !== name.toLowerCase())
      this.fail(`the root element must be <${name}>, found ${this.seen()}`);
    this.skipMisc();
  }

  private end(): void {
    this.skipMisc();
    if (this.i < this.s.length) this.fail("content after the root element");
  }

  /** After `<params>`: its values (a response has at most one). */
  private params(one: boolean): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skipMisc();
      const k = this.tag();
      const n = this.name;
      if (k === CLOSE && n === "params") return out;
      if (n !== "param" || k !== OPEN) return this.unexpected("<param>");
      if (one && out.length) this.fail("response has more than one param");
      out.push(this.opening("value", "<value> in <param>") === EMPTY ? this.untyped("") : this.value());
      this.closing("param");
    }
  }

  /** After `<fault>`: a struct value with faultCode and faultString. */
  private fault(): DecodedResponse {
    const v = this.opening("value", "<value> in <fault>") === EMPTY ? "" : this.value();
    this.closing("fault");
    if (typeof v !== "object" || v === null || Array.isArray(v)) this.fail("the fault is not a struct");
    const f = v as Record<string, unknown>;
    return { kind: "fault", faultCode: f.faultCode, faultString: f.faultString };
  }

  /** The text of a `<value>` without a type: a string. */
  private untyped(text: string): unknown {
    return this.wire ? { t: "string", v: text } : text;
  }

  /** After `<value>`: a typed value, or the text itself when no type is given. */
  private value(): unknown {
    const text = this.text();
    const k = this.tag();
    const n = this.name;
    if (k === CLOSE && n === "value") return this.untyped(text);
    if (k === CLOSE) return this.unexpected("a type or </value>");
    if (!isBlank(text)) this.fail(`text before <${n}> in <value>`);
    const v = this.typed(n, k === EMPTY);
    this.closing("value");
    return this.wire ? this.wireValue(n, v) : v;
  }

  private typed(type: string, empty: boolean): unknown {
    if (type === "struct" || type === "array") {
      if (empty) return type === "array" ? [] : this.wire ? new Map() : {};
      if (++this.depth > MAX_NESTING) this.fail(`arrays and structs nested deeper than ${MAX_NESTING} levels`);
      const v = type === "struct" ? this.struct() : this.array();
      this.depth--;
      return v;
    }
    if (!SCALARS.has(type)) return this.fail(`unknown XML-RPC type <${type}>`);
    const text = empty ? "" : this.leaf(type);
    // Whitespace around a number, a boolean or a date is no part of it, nor is any in base64; a string keeps its own.
    const t = type === "string" ? text : type === "base64" ? text.replace(/[ \t\r\n]+/g, "") : text.trim();
    switch (type) {
      case "string":
        return t;
      case "int":
      case "i4":
      case "i8": {
        if (!INT.test(t)) this.fail(`<${type}> holds '${t.slice(0, 40)}', not an integer`);
        const n = Number(t);
        // Beyond 2^53 a number would round: the exact text instead, as for i8 (ids and counts refuse it in normalize.ts).
        return type !== "i8" && Number.isSafeInteger(n) ? n : t;
      }
      case "double":
        if (DOUBLE.test(t)) return Number(t);
        // Python's xmlrpc.client writes repr(float): inf, -inf, nan.
        if (/^[+-]?inf(inity)?$/i.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
        if (/^[+-]?nan$/i.test(t)) return NaN;
        return this.fail(`<double> holds '${t.slice(0, 40)}', not a number`);
      case "boolean":
        if (t === "1" || t === "0") return t === "1";
        return this.fail(`expected 0 or 1 in <boolean>, got '${t.slice(0, 40)}'`);
      case "nil":
        if (!isBlank(text)) this.fail("text in <nil>");
        return null;
      case "base64":
        // The text itself: decoding is the caller's choice, and text that is not base64 is refused rather than
        // decoded to bytes it does not hold.
        if (!BASE64.test(t) || t.length % 4 === 1 || (t.endsWith("=") && t.length % 4 !== 0))
          this.fail(`expected base64 text in <base64>, got '${t.slice(0, 40)}'`);
        return t;
      default:
        // The text itself, offset and all: a Date would be shifted into the machine's time zone.
        return isIso8601(t) ? t : this.fail(`expected an ISO 8601 date in <dateTime.iso8601>, got '${t.slice(0, 40)}'`);
    }
  }

  /** A value read by `typed` as the emulator keeps it: its wire type, an int within its width. */
  private wireValue(type: string, v: unknown): WireValue {
    if (type === "int" || type === "i4" || type === "i8") {
      const n = Number(v);
      if (type === "i8" ? !Number.isSafeInteger(n) : !(n >= -(2 ** 31) && n < 2 ** 31))
        this.fail(`<${type}> holds '${String(v).slice(0, 40)}', not an integer in range`);
      return { t: "int", v: n };
    }
    if (type === "double" && !Number.isFinite(v)) this.fail(`<double> holds ${v}, not a finite number`);
    if (type === "base64") return { t: "base64", v: Buffer.from(v as string, "base64") };
    if (type === "nil") return { t: "nil" };
    return { t: type === "datetime.iso8601" ? "datetime" : type, v } as WireValue;
  }

  private struct(): Record<string, unknown> | Map<string, unknown> {
    const out: Record<string, unknown> = {};
    const map = this.wire ? new Map<string, unknown>() : undefined;
    let position = 0;
    for (;;) {
      // Fast paths (eat) for the usual markup; the general ones accept comments, prefixes, case.
      if (!this.eat("<member>")) {
        if (this.eat("</struct>")) return map ?? out;
        this.skipMisc();
        const k = this.tag();
        const n = this.name;
        if (k === CLOSE && n === "struct") return map ?? out;
        if (n !== "member" || k !== OPEN) return this.unexpected("<member> or </struct>");
      }
      const key = this.opening("name", "<name> in <member>") === EMPTY ? "" : this.memberName(position++);
      const v = this.opening("value", "<value> in <member>") === EMPTY ? this.untyped("") : this.value();
      this.closing("member");
      if (map) {
        if (map.has(key)) this.fail(`duplicate struct member '${key.slice(0, 40)}'`);
        map.set(key, v);
      } else defineData(out, key, v);
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
        if (this.eat("<value>")) out.push(this.value());
        else if (this.eat("</data>")) break;
        else {
          this.skipMisc();
          const kv = this.tag();
          const n: string = this.name;
          if (kv === CLOSE && n === "data") break;
          if (n !== "value" || kv === CLOSE) return this.unexpected("<value> or </data>");
          out.push(kv === EMPTY ? this.untyped("") : this.value());
        }
      }
    }
    this.closing("array");
    return out;
  }

  /** After `<name>`: the member's name; the previous struct's name at this position is tried in place first (rows repeat). */
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
}

/** Sets a key as plain data, so a member named `__proto__` never changes the object's prototype. */
export function defineData(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === "__proto__")
    Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
  else o[k] = v;
}

/** Decodes a methodResponse document (the client's side); throws XmlRpcDecodeError when it is not one. */
export function decodeMethodResponse(xml: string): DecodedResponse {
  return new Reader(xml, false).response();
}

/** Parses a methodCall document (the emulator's side), its values typed; throws XmlRpcDecodeError when it is not one. */
export function parseMethodCall(xml: string): ParsedCall {
  const raw = forbiddenXmlChar(xml);
  if (raw) throw new XmlRpcDecodeError(forbiddenMessage(raw));
  return new Reader(xml, true).call();
}
