/**
 * Writes XML-RPC documents: the client's methodCall, the emulator's methodResponse and fault. Not the `xmlrpc`
 * package's serializer: it writes every integral number as `<int>` (byte counts must be `<double>`) and takes ~400 ms
 * for a 10,000-row report where this takes a few. tests/unit/xmlrpc.test.ts checks the package reads what this writes.
 */

/** A number that goes on the wire as `<double>` even when it is integral. */
export class Double {
  constructor(readonly value: number) {}
}

/** An integer that goes on the wire as `<i8>` (its decimal text), as 64-bit servers send ids and counts. */
export class I8 {
  constructor(readonly value: number | bigint) {}
}

/** A `<dateTime.iso8601>` value, written exactly as given (with its offset): see emulator/compat.ts. */
export class DateTimeText {
  constructor(readonly text: string) {}
}

/** A struct as written: its members by name. */
export type WireStruct = { readonly [key: string]: WireOut };

/** What may be written: JS scalars (an integral number as `<int>`), `Double`, `I8`, `DateTimeText`, `null` (`<nil/>`), arrays and structs. */
export type WireOut = string | number | boolean | null | Double | I8 | DateTimeText | readonly WireOut[] | WireStruct;

/** Whether a value to write is a struct (not an array, nor a typed scalar). */
export function isStruct(v: WireOut): v is WireStruct {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !(v instanceof Double || v instanceof I8 || v instanceof DateTimeText)
  );
}

const XML_HEAD = '<?xml version="1.0"?>\n';
const ESCAPE_RE = /[&<>\r]/;
const ESCAPE_ALL_RE = /[&<>\r]/g;
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\r": "&#13;" };

function escapeText(text: string): string {
  return ESCAPE_RE.test(text) ? text.replace(ESCAPE_ALL_RE, (c) => ESCAPES[c]) : text;
}

/** A double's text without an exponent, which the XML-RPC spec does not allow. */
export function formatDouble(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(`cannot send ${n} as an XML-RPC double`);
  if (Number.isInteger(n)) return `${BigInt(n)}.0`;
  const text = String(n);
  return text.includes("e") ? n.toFixed(20).replace(/0+$/, "") : text;
}

function writeValue(value: WireOut, out: string[]): void {
  if (typeof value === "string") out.push(`<value><string>${escapeText(value)}</string></value>`);
  else if (typeof value === "number" && Number.isInteger(value)) out.push(`<value><int>${value}</int></value>`);
  else if (typeof value === "number") out.push(`<value><double>${formatDouble(value)}</double></value>`);
  else if (typeof value === "boolean") out.push(`<value><boolean>${value ? 1 : 0}</boolean></value>`);
  else if (value === null) out.push("<value><nil/></value>");
  else if (value instanceof Double) out.push(`<value><double>${formatDouble(value.value)}</double></value>`);
  else if (value instanceof I8) out.push(`<value><i8>${BigInt(value.value)}</i8></value>`);
  else if (value instanceof DateTimeText)
    out.push(`<value><dateTime.iso8601>${escapeText(value.text)}</dateTime.iso8601></value>`);
  else if (Array.isArray(value)) {
    out.push("<value><array><data>");
    for (const item of value as readonly WireOut[]) writeValue(item, out);
    out.push("</data></array></value>");
  } else {
    out.push("<value><struct>");
    const struct = value as WireStruct;
    for (const key of Object.keys(struct)) {
      out.push(`<member><name>${escapeText(key)}</name>`);
      writeValue(struct[key], out);
      out.push("</member>");
    }
    out.push("</struct></value>");
  }
}

/** A document: `open`, each value between `<tag>` and `</tag>` (a `<param>`, a `<fault>`), then `close`. */
function document(open: string, tag: string, values: readonly WireOut[], close: string): string {
  const out: string[] = [XML_HEAD, open];
  for (const v of values) {
    out.push(`<${tag}>`);
    writeValue(v, out);
    out.push(`</${tag}>`);
  }
  out.push(close, "\n");
  return out.join("");
}

/** A methodCall of `method` with positional `params` (the client's request). */
export function methodCall(method: string, params: readonly WireOut[]): string {
  const name = `<methodName>${escapeText(method)}</methodName>`;
  return document(`<methodCall>${name}<params>`, "param", params, "</params></methodCall>");
}

/** A methodResponse carrying one value. */
export function methodResponse(value: WireOut): string {
  return document("<methodResponse><params>", "param", [value], "</params></methodResponse>");
}

/** A methodResponse carrying a fault struct `{faultCode, faultString}`. */
export function faultResponse(faultCode: number, faultString: string): string {
  return document("<methodResponse>", "fault", [{ faultCode, faultString }], "</methodResponse>");
}
