/**
 * A parsed XML-RPC value that keeps its wire type. The `xmlrpc` package's Deserializer turns
 * `<int>5</int>`, `<double>5</double>` and `<string>5</string>` into indistinguishable JS values;
 * the emulator must tell them apart to refuse a string where the method table says int.
 */
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

/** The wire type's name as a message shows it (`int`, `string`, `struct`...). */
export function wireTypeName(value: WireValue): string {
  return value.t === "datetime" ? "dateTime.iso8601" : value.t;
}

/** Struct members whose value is replaced in call records, so no secret is ever kept. */
const REDACTED_KEYS: ReadonlySet<string> = new Set(["password"]);
export const REDACTED = "[redacted]";

/**
 * A plain JS copy of a wire value for call records, with every struct `password` member
 * replaced by "[redacted]". Keys are copied as own data properties, so `__proto__` stays inert.
 */
export function toRecordValue(value: WireValue): unknown {
  switch (value.t) {
    case "nil":
      return null;
    case "base64":
      return `<${value.v.length} bytes of base64>`;
    case "array":
      return value.v.map(toRecordValue);
    case "struct": {
      const out: Record<string, unknown> = {};
      for (const [key, member] of value.v) {
        Object.defineProperty(out, key, {
          value: REDACTED_KEYS.has(key) ? REDACTED : toRecordValue(member),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    default:
      return value.v;
  }
}
