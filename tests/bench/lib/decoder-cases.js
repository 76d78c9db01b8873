/**
 * The cases of the client's XML-RPC decoder check (provider/api/xmlrpc/read.ts): differential against
 * the `xmlrpc` package's Deserializer, which it replaced. Shared by tests/bench/decoder-check.js
 * (`npm run bench`) and tests/unit/decoder-check.test.ts (`npm test`); the decoder is passed in,
 * so the test checks the source and the bench the compiled module.
 *  - every value the package's serializer can write (random nested values with dates, buffers,
 *    nil, i8-sized numbers, markup characters, astral characters), and faults;
 *  - the same documents rewritten the ways other servers write them: CDATA, entities and
 *    character references, comments, whitespace and newlines between tags, upper-case tags,
 *    `ex:` prefixes, untyped values, self-closing empty elements;
 *  - every strict prefix of a real document (a cut body) and a list of malformed ones must fail.
 * Differences by design: dateTime.iso8601 is decoded to the exact text sent (the package gives
 * a Date in the machine's time zone), so a date compares equal when its text means the same instant;
 * base64 is decoded to its base64 text (the package gives bytes), equal when it names the same bytes.
 */
"use strict";
const { PassThrough } = require("stream");
const Serializer = require("xmlrpc/lib/serializer");
const Deserializer = require("xmlrpc/lib/deserializer");
const DateFormatter = require("xmlrpc/lib/date_formatter");

/** The package's answer: { kind, value } or { kind: "fault", faultCode, faultString } or { error }. */
function reference(xml) {
  return new Promise((resolve) => {
    const stream = new PassThrough();
    let done = false;
    new Deserializer("utf8").deserializeMethodResponse(stream, (err, value) => {
      if (done) return;
      done = true;
      if (!err) return resolve({ kind: "value", value });
      if (err.faultCode !== undefined || err.faultString !== undefined)
        return resolve({ kind: "fault", faultCode: err.faultCode, faultString: err.faultString });
      resolve({ error: err.message });
    });
    stream.end(Buffer.from(xml, "utf8"));
  });
}

function oursWith(decodeMethodResponse) {
  return (xml) => {
    try {
      return decodeMethodResponse(xml);
    } catch (e) {
      return { error: e.message };
    }
  };
}

/** Structural equality that tells Date, Buffer, null, "" and undefined apart. */
function same(a, b) {
  // Ours keeps a dateTime's text; the package's Date must be the same instant.
  if (a instanceof Date && typeof b === "string") return sameInstant(a, b);
  // Ours keeps base64 as its text; the package's Buffer must hold the bytes that text names.
  if (Buffer.isBuffer(a) && typeof b === "string") return a.toString("base64") === b;
  if (a instanceof Date || b instanceof Date)
    return (
      a instanceof Date &&
      b instanceof Date &&
      (a.getTime() === b.getTime() || (Number.isNaN(a.getTime()) && Number.isNaN(b.getTime())))
    );
  if (Buffer.isBuffer(a) || Buffer.isBuffer(b)) return Buffer.isBuffer(a) && Buffer.isBuffer(b) && a.equals(b);
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && same(a[k], b[k]));
  }
  return Object.is(a, b);
}

function sameInstant(date, text) {
  try {
    return DateFormatter.decodeIso8601(text).getTime() === date.getTime();
  } catch {
    return false;
  }
}

// Deterministic pseudo-random values (mulberry32).
let seed = 12345;
function rnd() {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
const STRINGS = [
  "",
  " ",
  "plain",
  "a < b & c > d",
  "quotes \" and '",
  "tab\there",
  "line\nbreak",
  "]]>",
  "&amp; literally",
  "日本語",
  "emoji 😀",
  "  padded  ",
  "x".repeat(300),
];
function randomValue(depth) {
  const r = rnd();
  if (depth > 3 || r < 0.5) {
    switch (Math.floor(rnd() * 8)) {
      case 0:
        return pick(STRINGS);
      case 1:
        return Math.floor(rnd() * 2 ** 31) * (rnd() < 0.5 ? -1 : 1);
      case 2:
        return Math.round(rnd() * 1e6) / 1000 + 0.5;
      case 3:
        return rnd() < 0.5;
      case 4:
        return null;
      case 5:
        return new Date(Math.floor((rnd() * 2e12) / 1000) * 1000);
      case 6:
        return Buffer.from(pick(STRINGS) + "\u0000\u00ff", "utf8");
      default:
        return pick(STRINGS);
    }
  }
  if (r < 0.75) return Array.from({ length: Math.floor(rnd() * 5) }, () => randomValue(depth + 1));
  const o = {};
  for (let i = Math.floor(rnd() * 5); i > 0; i--)
    o[pick(["id", "name", "a b", "x&y", "日本", "k" + i])] = randomValue(depth + 1);
  return o;
}

/** Rewrites a document the ways other servers write XML-RPC, without changing its meaning. */
const VARIANTS = {
  "CDATA strings": (x) =>
    x.replace(
      /<string>([^<]*)<\/string>/g,
      (_, t) => `<string><![CDATA[${xmlUnescape(t).replace(/]]>/g, "]]]]><![CDATA[>")}]]></string>`,
    ),
  "character references": (x) =>
    x.replace(
      /<string>([^<]*)<\/string>/g,
      (_, t) => `<string>${[...xmlUnescape(t)].map((c) => `&#${c.codePointAt(0)};`).join("")}</string>`,
    ),
  "hex references, `&quot;` and `&apos;`": (x) =>
    x.replace(
      /<string>([^<]*)<\/string>/g,
      (_, t) =>
        `<string>${[...xmlUnescape(t)].map((c) => (c === '"' ? "&quot;" : c === "'" ? "&apos;" : `&#x${c.codePointAt(0).toString(16)};`)).join("")}</string>`,
    ),
  "whitespace and comments between tags": (x) => {
    let n = 0;
    // Only after structural tags (never inside a string, a name or a CDATA section).
    return x
      .replace(
        /(<\/?(?:methodResponse|params|param|value|struct|member|array|data|fault)>|<\/(?:string|name|int|i4|double|boolean|base64|dateTime\.iso8601)>)(?=<)/g,
        (tag) => tag + ["\n  <!-- c -->\n", "\r\n\t", " ", "<?pi x?>"][n++ % 4],
      )
      .replace(/<value>(\s|<!--[^>]*-->|<\?pi x\?>)+<\/value>/g, "<value></value>");
  },
  "upper-case tags": (x) => x.replace(/<(\/?)([A-Za-z.0-9]+)(\/?)>/g, (_, a, n, b) => `<${a}${n.toUpperCase()}${b}>`),
  "untyped strings": (x) => x.replace(/<value><string>([^<]*)<\/string><\/value>/g, "<value>$1</value>"),
  "self-closing empties": (x) =>
    x
      .replace(/<string><\/string>/g, "<string/>")
      .replace(/<data><\/data>/g, "<data/>")
      .replace(/<struct><\/struct>/g, "<struct/>"),
  "i4 for int": (x) => x.replace(/<int>([^<]*)<\/int>/g, "<i4>$1</i4>"),
  "comment inside text": (x) =>
    x.replace(
      /<string>([^<]{2,})<\/string>/g,
      (_, t) => `<string>${t.slice(0, 1)}<!-- split -->${t.slice(1)}</string>`,
    ),
  "no XML declaration, BOM": (x) => "\ufeff" + x.replace(/^<\?xml[^>]*\?>\s*/, ""),
};
function xmlUnescape(t) {
  return t.replace(
    /&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-f]+);/gi,
    (_, e) =>
      ({ lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" })[e] ??
      String.fromCodePoint(e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10)),
  );
}

/** Documents the package does not write but servers do; compared with the expected value. */
const EXPECTED = [
  [
    "<methodResponse><params><param><value><i8>9007199254740993</i8></value></param></params></methodResponse>",
    "9007199254740993",
  ],
  ["<methodResponse><params><param><value><ex:i8>-5</ex:i8></value></param></params></methodResponse>", "-5"],
  ["<methodResponse><params><param><value><nil/></value></param></params></methodResponse>", null],
  ["<methodResponse><params><param><value><ex:nil/></value></param></params></methodResponse>", null],
  ["<methodResponse><params><param><value><double>1e3</double></value></param></params></methodResponse>", 1000],
  ["<methodResponse><params><param><value><double>-inf</double></value></param></params></methodResponse>", -Infinity],
  ["<methodResponse><params><param><value><int> 42 </int></value></param></params></methodResponse>", 42],
  ["<methodResponse><params><param><value/></param></params></methodResponse>", ""],
  ["<methodResponse><params><param><value>  spaced  </value></param></params></methodResponse>", "  spaced  "],
  [
    "<methodResponse><params><param><value><string>a\r\nb\rc</string></value></param></params></methodResponse>",
    "a\nb\nc",
  ],
  ["<methodResponse><params><param><value><string>a&#13;b</string></value></param></params></methodResponse>", "a\rb"],
  [
    '<methodResponse><params><param><value><string attr="a>b">x</string></value></param></params></methodResponse>',
    "x",
  ],
  [
    "<methodResponse><params><param><value><base64>aGVs\n bG8=</base64></value></param></params></methodResponse>",
    "aGVsbG8=",
  ],
  ["<methodResponse><params><param><value><base64></base64></value></param></params></methodResponse>", ""],
  // An int beyond 2^53 is its exact text (the package rounded it to the nearest double).
  [
    "<methodResponse><params><param><value><int>9007199254740993</int></value></param></params></methodResponse>",
    "9007199254740993",
  ],
  [
    "<methodResponse><params><param><value><i4>-9007199254740991</i4></value></param></params></methodResponse>",
    -9007199254740991,
  ],
  // 64 levels of arrays, the documented limit (MAX_NESTING), still decode.
  [
    `<methodResponse><params><param><value>${"<array><data><value>".repeat(63)}<array><data/></array>${"</value></data></array>".repeat(63)}</value></param></params></methodResponse>`,
    JSON.parse("[".repeat(64) + "]".repeat(64)),
  ],
  [
    "<methodResponse><params><param><value><dateTime.iso8601>20260121T10:34:09</dateTime.iso8601></value></param></params></methodResponse>",
    "20260121T10:34:09",
  ],
  // dateTime values with an offset are kept as sent: the package read +05:00 as .050Z.
  [
    "<methodResponse><params><param><value><dateTime.iso8601>2026-01-21T10:34:09+05:00</dateTime.iso8601></value></param></params></methodResponse>",
    "2026-01-21T10:34:09+05:00",
  ],
  [
    "<methodResponse><params><param><value><dateTime.iso8601> 2026-10-01T00:00:00-07:00 </dateTime.iso8601></value></param></params></methodResponse>",
    "2026-10-01T00:00:00-07:00",
  ],
  [
    "<methodResponse><params><param><value><dateTime.iso8601>2026-01-21T10:34:09.123Z</dateTime.iso8601></value></param></params></methodResponse>",
    "2026-01-21T10:34:09.123Z",
  ],
  // i8 as its decimal text (ids and counts of 64-bit servers), and nil where a value is missing.
  ["<methodResponse><params><param><value><i8>34995</i8></value></param></params></methodResponse>", "34995"],
  [
    "<methodResponse><params><param><value><struct><member><name>id</name><value><i8>12</i8></value></member><member><name>name</name><value><nil/></value></member></struct></value></param></params></methodResponse>",
    { id: "12", name: null },
  ],
  [
    "<methodResponse><params><param><value><array><data><value><nil/></value><value><ex:nil></ex:nil></value><value><i8>-9223372036854775808</i8></value></data></array></value></param></params></methodResponse>",
    [null, null, "-9223372036854775808"],
  ],
  ["<methodResponse><params><param><value><array></array></value></param></params></methodResponse>", []],
  [
    "<methodResponse><params><param><value><struct><member><name>__proto__</name><value><int>1</int></value></member></struct></value></param></params></methodResponse>",
    JSON.parse('{"__proto__":1}'),
  ],
  ["<methodResponse><params></params></methodResponse>", undefined],
];

const MALFORMED = [
  "",
  "not xml at all",
  "<!DOCTYPE html><html><title>502 Bad Gateway</title></html>",
  "<html><body>oops</body></html>",
  "<methodCall><methodName>x</methodName><params/></methodCall>",
  "<methodResponse><params><param><value><int>1</int></value></param><param><value><int>2</int></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><int>x</int></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><boolean>2</boolean></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><double>abc</double></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><foo>1</foo></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><string>a &nbsp; b</string></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><string>a & b</string></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><string>&#0;</string></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><string>x</int></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><struct><member><value><int>1</int></value></member></struct></value></param></params></methodResponse>",
  "<methodResponse><params><param>stray<value><int>1</int></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><int>1</int></value></param></params></methodResponse><extra/>",
  "<!DOCTYPE x [<!ENTITY e 'boom'>]><methodResponse><params><param><value><string>&e;</string></value></param></params></methodResponse>",
  "<methodResponse><fault><value><string>not a struct</string></value></fault></methodResponse>",
  "<methodResponse><params><param><value><dateTime.iso8601>tomorrow</dateTime.iso8601></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><i8>12.5</i8></value></param></params></methodResponse>",
  // base64 that is not base64 (the package decoded it to bytes it does not hold).
  "<methodResponse><params><param><value><base64>not base64!</base64></value></param></params></methodResponse>",
  "<methodResponse><params><param><value><base64>aGVsbG8=x</base64></value></param></params></methodResponse>",
  // Nesting past MAX_NESTING (64): a protocol error, not a stack overflow.
  `<methodResponse><params><param><value>${"<array><data><value>".repeat(64)}<array><data/></array>${"</value></data></array>".repeat(64)}</value></param></params></methodResponse>`,
  `<methodResponse><params><param><value>${"<struct><member><name>a</name><value>".repeat(5000)}<int>1</int>${"</value></member></struct>".repeat(5000)}</value></param></params></methodResponse>`,
];

/**
 * Runs every group against `decodeMethodResponse` (with `randomDocs` random documents, each
 * rewritten every way; the bench uses 400, npm test fewer to stay fast); returns one entry per group (documents right
 * of the total), the first differences found, and how many documents were compared.
 */
async function runDecoderCheck(decodeMethodResponse, randomDocs = 400) {
  const ours = oursWith(decodeMethodResponse);
  seed = 12345;
  const groups = [];
  const failures = [];
  let compared = 0;

  // 1. What the package writes, as is and rewritten.
  const docs = [];
  for (let i = 0; i < randomDocs; i++) docs.push(Serializer.serializeMethodResponse(randomValue(0)));
  docs.push(Serializer.serializeFault({ faultCode: 401, faultString: "authString <rejected> & expired" }));
  docs.push(Serializer.serializeFault({ faultCode: -32601, faultString: "" }));
  const rewrites = { "as written by the xmlrpc package": (x) => x, ...VARIANTS };
  for (const [name, rewrite] of Object.entries(rewrites)) {
    let bad = 0;
    for (const d of docs) {
      const x = rewrite(d);
      const [want, got] = [await reference(x), ours(x)];
      compared++;
      if (!same(want, got)) {
        bad++;
        if (failures.length < 5) failures.push({ group: name, xml: x.slice(0, 400), want, got });
      }
    }
    groups.push({
      id: `decode.${name}`,
      label: `${name}: documents decoded as the package does`,
      ok: docs.length - bad,
      total: docs.length,
    });
  }

  // 2. Shapes the package does not write (its Deserializer is wrong or absent for some).
  let badExpected = 0;
  for (const [x, want] of EXPECTED) {
    const got = ours(x);
    compared++;
    if (got.error || !same(got.value, want)) {
      badExpected++;
      failures.push({ group: "expected", xml: x, want, got });
    }
  }
  groups.push({
    id: "decode.expected",
    label: "i8, nil, offset dateTimes, inf, CRLF, attributes, __proto__ ...: expected values",
    ok: EXPECTED.length - badExpected,
    total: EXPECTED.length,
  });

  // 3. Cut bodies and malformed documents are errors, never values.
  const sample = Serializer.serializeMethodResponse([
    { id: 1, name: "a&b", when: new Date(0), blob: Buffer.from("x"), n: null, ok: true, d: 1.5 },
  ]);
  let accepted = 0;
  const cut = [];
  for (let n = 0; n < sample.trimEnd().length; n++) cut.push(sample.slice(0, n));
  for (const x of [...cut, ...MALFORMED]) {
    compared++;
    if (!ours(x).error) {
      accepted++;
      failures.push({ group: "malformed", xml: x, got: ours(x) });
    }
  }
  groups.push({
    id: "decode.malformed",
    label: "cut bodies (every prefix) and malformed documents rejected",
    ok: cut.length + MALFORMED.length - accepted,
    total: cut.length + MALFORMED.length,
  });
  return { groups, failures, compared };
}

module.exports = { runDecoderCheck, EXPECTED, MALFORMED };
