/**
 * A small XML-RPC `methodCall` parser over `sax` that keeps each value's wire type.
 * It refuses DOCTYPE declarations (and so any custom entity), characters XML forbids (raw or
 * as character references, which sax would decode), bounds nesting depth, and reports every
 * malformed document as a ParseFailure, which the dispatcher turns into a
 * PARSE_ERROR fault instead of a crash.
 */
import { INT32_MAX } from "../../api/ids";
import { forbiddenXmlChar } from "./chars";
import type { WireValue } from "./wire-value";

/** A parsed call: the `<methodName>` and the positional `<params>`. */
export interface ParsedCall {
  readonly methodName: string;
  readonly params: readonly WireValue[];
}

/** The document is not a well-formed XML-RPC methodCall. */
export class ParseFailure extends Error {}

// sax ships no types; only these members are used.
interface SaxTag {
  name: string;
}
interface SaxParser {
  onopentag: (tag: SaxTag) => void;
  onclosetag: (name: string) => void;
  ontext: (text: string) => void;
  oncdata: (text: string) => void;
  ondoctype: (doctype: string) => void;
  onerror: (error: Error) => void;
  write(chunk: string): SaxParser;
  close(): SaxParser;
}

const sax: { parser(strict: boolean, options: Record<string, unknown>): SaxParser } = require("sax");

/** Deep enough for any call of this API (structs hold strings, sortby holds strings). */
const MAX_DEPTH = 32;

const SCALARS = ["int", "i4", "i8", "boolean", "string", "double", "dateTime.iso8601", "base64", "nil"];
/** Which element may contain which: the XML-RPC grammar (http://xmlrpc.com/spec.md). */
const PARENT: ReadonlyMap<string, readonly (string | null)[]> = new Map<string, readonly (string | null)[]>([
  ["methodCall", [null]],
  ["methodName", ["methodCall"]],
  ["params", ["methodCall"]],
  ["param", ["params"]],
  ["value", ["param", "data", "member"]],
  ["array", ["value"]],
  ["struct", ["value"]],
  ["data", ["array"]],
  ["member", ["struct"]],
  ["name", ["member"]],
  ...SCALARS.map((s): [string, readonly string[]] => [s, ["value"]]),
]);
/** Elements whose character data is meaningful; elsewhere only whitespace is allowed. */
const TEXT_TAGS: ReadonlySet<string> = new Set(["methodName", "name", "value", ...SCALARS]);

interface Frame {
  readonly tag: string;
  text: string;
  /** The typed child of a `<value>`, or the finished value of a `<param>` / `<member>`. */
  value?: WireValue;
  /** Values of a `<data>` / `<array>`, or of `<params>`. */
  values?: WireValue[];
  /** Members of a `<struct>`. */
  members?: Map<string, WireValue>;
  /** The `<name>` of a `<member>`. */
  name?: string;
  /** Whether an element child was seen (a `<value>` with one is not an implicit string). */
  hasChild?: boolean;
}

const INT_RE = /^[+-]?\d+$/;
const DOUBLE_RE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const BASE64_RE = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;
const I4_MAX = INT32_MAX;
const I4_MIN = -INT32_MAX - 1;

function fail(message: string): never {
  throw new ParseFailure(message);
}

function scalar(tag: string, raw: string): WireValue {
  const text = raw.trim();
  switch (tag) {
    case "int":
    case "i4":
    case "i8": {
      const n = INT_RE.test(text) ? Number(text) : NaN;
      const inRange = tag === "i8" ? Number.isSafeInteger(n) : n >= I4_MIN && n <= I4_MAX;
      if (!Number.isInteger(n) || !inRange) fail(`<${tag}> holds '${text.slice(0, 40)}', not an integer in range`);
      return { t: "int", v: n };
    }
    case "double": {
      const n = DOUBLE_RE.test(text) ? Number(text) : NaN;
      if (!Number.isFinite(n)) fail(`<double> holds '${text.slice(0, 40)}', not a number`);
      return { t: "double", v: n };
    }
    case "boolean":
      if (text !== "0" && text !== "1") fail(`<boolean> must hold 0 or 1`);
      return { t: "boolean", v: text === "1" };
    case "string":
      return { t: "string", v: raw };
    case "dateTime.iso8601":
      return { t: "datetime", v: text };
    case "base64":
      if (!BASE64_RE.test(text)) fail("<base64> holds characters outside the base64 alphabet");
      return { t: "base64", v: Buffer.from(text, "base64") };
    case "nil":
      if (text !== "") fail("<nil/> must be empty");
      return { t: "nil" };
    default:
      return fail(`unexpected element <${tag}>`);
  }
}

function forbiddenMessage(char: string): string {
  return `the document holds ${char}, a character XML 1.0 does not allow (standard clients could not read it back)`;
}

/**
 * Builds the call from sax's events: checks each element against the grammar (PARENT), keeps the
 * text of the elements that have one (TEXT_TAGS), and turns each closed element into a value of its parent.
 */
class CallBuilder {
  private readonly stack: Frame[] = [];
  private methodName: string | undefined;
  private params: WireValue[] = [];
  private rootSeen = false;
  private rootClosed = false;

  open(name: string): void {
    const { stack } = this;
    const parent = stack.length ? stack[stack.length - 1] : undefined;
    if (!parent && !this.rootSeen && name !== "methodCall") fail("the root element must be <methodCall>");
    const allowed = PARENT.get(name);
    if (!allowed) fail(`unexpected element <${name}>`);
    if (this.rootClosed || (!parent && this.rootSeen)) fail("content after the end of <methodCall>");
    if (!allowed.includes(parent ? parent.tag : null)) {
      fail(parent ? `<${name}> is not allowed inside <${parent.tag}>` : "the root element must be <methodCall>");
    }
    if (stack.length >= MAX_DEPTH) fail(`nesting deeper than ${MAX_DEPTH} levels`);
    if (parent) parent.hasChild = true;
    this.rootSeen = true;
    stack.push({ tag: name, text: "" });
  }

  text(text: string): void {
    // sax decodes &#1; and &#xFFFE; without complaint; XML 1.0 forbids them as it forbids the raw characters.
    const decoded = forbiddenXmlChar(text);
    if (decoded) fail(forbiddenMessage(decoded));
    const top = this.stack[this.stack.length - 1];
    if (top && TEXT_TAGS.has(top.tag)) top.text += text;
    else if (text.trim() !== "") fail(top ? `unexpected text inside <${top.tag}>` : "text outside <methodCall>");
  }

  close(name: string): void {
    const frame = this.stack.pop() as Frame;
    if (frame.tag === "methodName") this.closeMethodName(frame);
    else if (frame.tag === "params") this.params = frame.values ?? [];
    else if (frame.tag !== "methodCall") closeInto(frame, this.stack[this.stack.length - 1]);
    if (name === "methodCall") this.rootClosed = true;
  }

  private closeMethodName(frame: Frame): void {
    if (this.methodName !== undefined) fail("more than one <methodName>");
    this.methodName = frame.text.trim();
  }

  /** The call, once the document has ended. */
  result(): ParsedCall {
    if (!this.rootClosed) fail("not a complete <methodCall> document");
    if (!this.methodName) fail("<methodCall> without a <methodName>");
    return { methodName: this.methodName, params: this.params };
  }
}

/** Adds what a closed element below `<params>` holds to its parent, as the grammar places it. */
function closeInto(frame: Frame, parent: Frame): void {
  switch (frame.tag) {
    case "param":
      if (!frame.value) fail("<param> without a <value>");
      (parent.values ??= []).push(frame.value);
      return;
    case "value":
      return closeValue(frame, parent);
    case "data":
      if (parent.values) fail("more than one <data> inside <array>");
      parent.values = frame.values ?? [];
      return;
    case "array":
      return setTyped(parent, { t: "array", v: frame.values ?? [] });
    case "struct":
      return setTyped(parent, { t: "struct", v: frame.members ?? new Map() });
    case "name":
      if (parent.name !== undefined) fail("more than one <name> inside <member>");
      parent.name = frame.text;
      return;
    case "member": {
      if (frame.name === undefined || !frame.value) fail("<member> needs a <name> and a <value>");
      const members = (parent.members ??= new Map());
      if (members.has(frame.name)) fail(`duplicate struct member '${frame.name.slice(0, 40)}'`);
      members.set(frame.name, frame.value);
      return;
    }
    default:
      return setTyped(parent, scalar(frame.tag, frame.text));
  }
}

/** A `<value>`: its typed child, or its text as an implicit string; an item of `<data>` or the value of its parent. */
function closeValue(frame: Frame, parent: Frame): void {
  if (frame.hasChild && frame.text.trim() !== "") fail("<value> mixes text with a typed element");
  const value: WireValue = frame.value ?? { t: "string", v: frame.text };
  if (parent.tag === "data") (parent.values ??= []).push(value);
  else if (parent.value) fail(`more than one <value> inside <${parent.tag}>`);
  else parent.value = value;
}

function setTyped(valueFrame: Frame, value: WireValue): void {
  if (valueFrame.value) fail("more than one typed element inside <value>");
  valueFrame.value = value;
}

/** Parses an XML-RPC methodCall document; throws ParseFailure when it is not one. */
export function parseMethodCall(xml: string): ParsedCall {
  const raw = forbiddenXmlChar(xml);
  if (raw) fail(forbiddenMessage(raw));
  const call = new CallBuilder();
  const parser = sax.parser(true, { trim: false, normalize: false, xmlns: false, position: true });
  parser.onerror = (error) => fail(String(error.message).replace(/\s*\n\s*/g, ", "));
  parser.ondoctype = () => fail("DOCTYPE declarations are not allowed");
  parser.onopentag = (tag) => call.open(tag.name);
  parser.ontext = (text) => call.text(text);
  parser.oncdata = (text) => call.text(text);
  parser.onclosetag = (name) => call.close(name);
  try {
    parser.write(xml).close();
  } catch (error) {
    if (error instanceof ParseFailure) throw error;
    throw new ParseFailure(error instanceof Error ? error.message : String(error));
  }
  return call.result();
}
