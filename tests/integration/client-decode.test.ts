/**
 * The decoder is exact or it refuses (issue 11), where the wire matters: a compressed answer is
 * inflated with the size cap on the inflated bytes, a body that is not UTF-8 is refused, a fault's
 * code must be an integer, and a number beyond 2^53 is refused as an id but kept exactly elsewhere.
 * Each answer comes from a scripted local server (tests/support) that keeps the requests it received.
 */
import * as http from "http";
import * as zlib from "zlib";
import { CdnClient, CdnFaultError, CdnProtocolError } from "../../provider/api";
import { useScriptedServer } from "../support/scriptedServer";

type Answer = (res: http.ServerResponse) => void;
const server = useScriptedServer();
let answer: Answer = (res) => res.end();
beforeAll(() => server.get().answer((res) => answer(res)));
beforeEach(() => server.get().reset());
const requests = () => server.get().received.length;

const client = (over: Partial<ConstructorParameters<typeof CdnClient>[0]> = {}) =>
  server.get().client({ apiKey: "decode-test-key", retries: 2, retryBaseDelayMs: 1, retryMaxDelayMs: 2, ...over });
const xml = (value: string) =>
  `<?xml version="1.0"?><methodResponse><params><param><value>${value}</value></param></params></methodResponse>`;
const fault = (code: string) =>
  `<?xml version="1.0"?><methodResponse><fault><value><struct><member><name>faultCode</name><value>${code}</value></member><member><name>faultString</name><value><string>odd</string></value></member></struct></value></fault></methodResponse>`;
const zones = (count: number) =>
  xml(
    `<array><data>${Array.from({ length: count }, (_, i) => `<value><struct><member><name>id</name><value><int>${i + 1}</int></value></member><member><name>name</name><value><string>zone-${i + 1}</string></value></member></struct></value>`).join("")}</data></array>`,
  );
const send =
  (body: Buffer | string, headers: Record<string, string> = {}): Answer =>
  (res) => {
    const b = Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
    res.writeHead(200, { "Content-Type": "text/xml", "Content-Length": String(b.length), ...headers });
    res.end(b);
  };
async function run<T>(
  fn: (c: CdnClient) => Promise<T>,
  over: Partial<ConstructorParameters<typeof CdnClient>[0]> = {},
): Promise<T> {
  const c = client(over);
  try {
    return await fn(c);
  } finally {
    c.close();
  }
}
const failure = (
  fn: (c: CdnClient) => Promise<unknown>,
  over: Partial<ConstructorParameters<typeof CdnClient>[0]> = {},
) =>
  run(
    (c) =>
      fn(c).then(
        () => undefined,
        (e: Error) => e,
      ),
    over,
  );

describe("a compressed answer is inflated, the size cap counting the inflated bytes", () => {
  test.each([
    ["gzip", zlib.gzipSync],
    ["x-gzip", zlib.gzipSync],
    ["deflate", zlib.deflateSync],
    ["br", zlib.brotliCompressSync],
  ] as const)("Content-Encoding: %s", async (encoding, compress) => {
    answer = send(compress(Buffer.from(zones(3))), { "Content-Encoding": encoding });
    const rows = await run((c) => c.vodzone.listZones());
    expect(rows.map((r) => [r.id, r.name])).toEqual([
      [1, "zone-1"],
      [2, "zone-2"],
      [3, "zone-3"],
    ]);
  });

  test("an answer that inflates past maxResponseBytes is refused, once", async () => {
    const body = zones(2000);
    const gz = zlib.gzipSync(Buffer.from(body));
    expect(gz.length).toBeLessThan(50_000);
    expect(body.length).toBeGreaterThan(50_000);
    answer = send(gz, { "Content-Encoding": "gzip" });
    const err = await failure((c) => c.vodzone.listZones(), { maxResponseBytes: 50_000 });
    expect(err).toBeInstanceOf(CdnProtocolError);
    expect(err!.message).toContain("vodzone.listZones");
    expect(err!.message).toContain("response larger than 50000 bytes");
    expect(err).toMatchObject({ retryable: false, attempts: 1 });
    expect(requests()).toBe(1);
  });

  test("a gzip bomb is refused as it inflates, before the server has even finished sending it", async () => {
    // 64 MiB of zeros in about 64 KiB; the server sends half of it and then holds the response
    // open. Only a client that inflates as it reads can see the cap passed: one that waited for
    // the whole body would end in its call timeout instead.
    const bomb = zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024));
    let closedByClient!: () => void;
    const closed = new Promise<void>((r) => (closedByClient = r));
    answer = (res) => {
      res.writeHead(200, { "Content-Type": "text/xml", "Content-Encoding": "gzip" });
      res.write(bomb.subarray(0, bomb.length >> 1));
      res.on("close", () => closedByClient());
    };
    const err = await failure((c) => c.vodzone.listZones(), { maxResponseBytes: 1_000_000, timeoutMs: 20_000 });
    expect(err).toBeInstanceOf(CdnProtocolError);
    expect(err!.message).toContain("response larger than 1000000 bytes");
    expect(err).toMatchObject({ retryable: false, attempts: 1 });
    await closed;
    expect(requests()).toBe(1);
  });

  test("a corrupt gzip body and an unknown Content-Encoding are protocol errors naming the method", async () => {
    answer = send(Buffer.from("this is not gzip at all"), { "Content-Encoding": "gzip" });
    const corrupt = await failure((c) => c.vodzone.listZones());
    expect(corrupt).toBeInstanceOf(CdnProtocolError);
    expect(corrupt!.message).toMatch(/vodzone\.listZones: .*gzip body could not be inflated/);
    answer = send(zones(1), { "Content-Encoding": "compress" });
    const unknown = await failure((c) => c.vodzone.listZones());
    expect(unknown).toBeInstanceOf(CdnProtocolError);
    expect(unknown!.message).toContain("unsupported Content-Encoding 'compress'");
  });
});

test("a body that is not valid UTF-8 is a protocol error, sent once, never U+FFFD", async () => {
  const bytes = Buffer.concat([Buffer.from(zones(1).replace("zone-1", "zone-\u0001")), Buffer.from([])]);
  // zone-<0xff>: a byte that is never UTF-8, where the name's second part was.
  bytes[bytes.indexOf(0x01)] = 0xff;
  answer = send(bytes);
  const err = await failure((c) => c.vodzone.listZones());
  expect(err).toBeInstanceOf(CdnProtocolError);
  expect(err!.message).toContain("vodzone.listZones: malformed response: body is not valid UTF-8");
  expect(err).toMatchObject({ retryable: false, attempts: 1 });
  expect(requests()).toBe(1);
  // A well-formed multi-byte name still comes through.
  answer = send(zones(1).replace("zone-1", "zöne-日本-😀"));
  expect((await run((c) => c.vodzone.listZones()))[0].name).toBe("zöne-日本-😀");
});

describe("a fault's code must be an integer", () => {
  test.each([
    ["<int>3002</int>", 3002],
    ["<string>3002</string>", 3002],
    ["<string> -1 </string>", -1],
    ["<i8>3002</i8>", 3002],
    ["3002", 3002],
  ])("%s is fault %d", async (code, want) => {
    answer = send(fault(code));
    const err = await failure((c) => c.user.listUsers());
    expect(err).toBeInstanceOf(CdnFaultError);
    expect(err).toMatchObject({ faultCode: want, faultString: "odd" });
  });

  test.each([
    ["<boolean>1</boolean>", "boolean true"],
    ["<string></string>", "''"],
    ["<string>abc</string>", "'abc'"],
    ["<string>0x1F</string>", "'0x1F'"],
    ["<double>1.5</double>", "number 1.5"],
    ["<nil/>", "nil"],
    ["<array><data/></array>", "an array"],
    ["<int>9007199254740993</int>", "'9007199254740993'"],
  ])("%s is a protocol error", async (code, what) => {
    answer = send(fault(code));
    const err = await failure((c) => c.user.listUsers());
    expect(err).toBeInstanceOf(CdnProtocolError);
    expect(err!.message).toBe(
      `user.listUsers: malformed response: fault with a faultCode that is not an integer (${what})`,
    );
    expect(err).toMatchObject({ attempts: 1 });
  });
});

describe("an integer beyond 2^53", () => {
  test("is a protocol error where it is an id, naming the exact number sent", async () => {
    answer = send(zones(1).replace("<int>1</int>", "<int>9007199254740993</int>"));
    const err = await failure((c) => c.vodzone.listZones());
    expect(err).toBeInstanceOf(CdnProtocolError);
    expect(err!.message).toContain("the id in row 1 is '9007199254740993', not an id");
  });

  test("is kept as its exact text where it is any other value", async () => {
    answer = send(
      xml(
        `<array><data><value><struct><member><name>id</name><value><int>5</int></value></member><member><name>quota</name><value><int>18446744073709551615</int></value></member></struct></value></data></array>`,
      ),
    );
    const [row] = await run((c) => c.user.listUsers());
    expect(row).toMatchObject({ id: 5, quota: "18446744073709551615" });
  });
});

test("nesting past the documented limit is a protocol error naming the method, not a stack overflow", async () => {
  answer = send(xml(`${"<array><data><value>".repeat(3000)}<int>1</int>${"</value></data></array>".repeat(3000)}`));
  const err = await failure((c) => c.call("user.listUsers"));
  expect(err).toBeInstanceOf(CdnProtocolError);
  expect(err!.message).toMatch(/^user\.listUsers: malformed response: arrays and structs nested deeper than 64 levels/);
  expect(err).toMatchObject({ attempts: 1 });
});
