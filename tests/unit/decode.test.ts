/**
 * The decoder is exact or it refuses (issue 11): each place where the `xmlrpc` package's reading
 * was not exact, decoded here to the exact text or refused with an XmlRpcDecodeError.
 */
import { decodeMethodResponse, MAX_NESTING, XmlRpcDecodeError } from "../../provider/api/xmlrpc";

const doc = (value: string) =>
  `<?xml version="1.0"?><methodResponse><params><param><value>${value}</value></param></params></methodResponse>`;
const valueOf = (value: string) => {
  const d = decodeMethodResponse(doc(value));
  if (d.kind !== "value") throw new Error("expected a value");
  return d.value;
};
const arrays = (levels: number) =>
  `${"<array><data><value>".repeat(levels - 1)}<array><data/></array>${"</value></data></array>".repeat(levels - 1)}`;
const structs = (levels: number) =>
  `${"<struct><member><name>a</name><value>".repeat(levels)}<int>1</int>${"</value></member></struct>".repeat(levels)}`;

describe("an integer beyond 2^53 is kept as its exact text", () => {
  test.each([
    ["<int>9007199254740993</int>", "9007199254740993"],
    ["<i4>-9007199254740993</i4>", "-9007199254740993"],
    ["<int>123456789012345678901234567890</int>", "123456789012345678901234567890"],
  ])("%s", (xml, text) => {
    expect(valueOf(xml)).toBe(text);
  });

  test("up to 2^53 - 1 an int stays a number", () => {
    expect(valueOf("<int>9007199254740991</int>")).toBe(9007199254740991);
    expect(valueOf("<i4>-9007199254740991</i4>")).toBe(-9007199254740991);
    expect(valueOf("<int> 42 </int>")).toBe(42);
  });
});

test("a member named __proto__ is data: the prototype stays Object.prototype and JSON shows the key", () => {
  const v = valueOf(
    "<struct><member><name>__proto__</name><value><struct><member><name>polluted</name><value><boolean>1</boolean></value></member></struct></value></member><member><name>id</name><value><int>7</int></value></member></struct>",
  ) as Record<string, unknown>;
  expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  expect((v as { polluted?: unknown }).polluted).toBeUndefined();
  expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  expect(Object.keys(v)).toEqual(["__proto__", "id"]);
  expect(JSON.stringify(v)).toBe('{"__proto__":{"polluted":true},"id":7}');
});

describe(`nesting deeper than MAX_NESTING (${MAX_NESTING}) levels is refused`, () => {
  test("the limit itself decodes", () => {
    expect(MAX_NESTING).toBe(64);
    expect(JSON.stringify(valueOf(arrays(MAX_NESTING)))).toBe("[".repeat(MAX_NESTING) + "]".repeat(MAX_NESTING));
    expect(valueOf(structs(MAX_NESTING))).toBeInstanceOf(Object);
  });

  test.each([
    ["arrays, one level past", arrays(MAX_NESTING + 1)],
    ["structs, one level past", structs(MAX_NESTING + 1)],
    // About 2,300 levels used to overflow the stack ("Maximum call stack size exceeded").
    ["structs, 5,000 levels", structs(5000)],
    ["arrays, 100,000 levels", arrays(100_000)],
  ])("%s", (_what, xml) => {
    let err: unknown;
    try {
      valueOf(xml);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(XmlRpcDecodeError);
    expect((err as Error).message).toContain(`nested deeper than ${MAX_NESTING} levels`);
  });
});

describe("base64 is its base64 text, never decoded bytes", () => {
  test.each([
    ["<base64>aGVsbG8=</base64>", "aGVsbG8="],
    ["<base64>\n  aGVs\r\n  bG8=\n</base64>", "aGVsbG8="],
    ["<base64>aGVsbG8</base64>", "aGVsbG8"],
    ["<base64>AP8=</base64>", "AP8="],
    ["<base64></base64>", ""],
    ["<base64/>", ""],
  ])("%s", (xml, text) => {
    expect(valueOf(xml)).toBe(text);
  });

  test.each([
    "<base64>not base64!</base64>",
    "<base64>aGVsbG8=x</base64>",
    "<base64>a</base64>",
    "<base64>aG=</base64>",
    "<base64>aG===</base64>",
  ])("%s is refused", (xml) => {
    expect(() => valueOf(xml)).toThrow(/expected base64 text in <base64>/);
  });
});
