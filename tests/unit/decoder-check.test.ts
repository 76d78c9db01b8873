/**
 * The decoder's differential check (tests/bench/lib/decoder-cases.js), run by `npm test` against
 * the source decoder: every document the `xmlrpc` package writes, rewritten the ways other servers
 * write XML-RPC, decodes as the package's Deserializer decodes it (dateTime values as their exact
 * text); the documents it does not write (i8, nil, offset dateTimes...) give the expected values;
 * every cut body and malformed document is refused.
 */
import { decodeMethodResponse } from "../../provider/api/xmlrpc";

type Group = { id: string; label: string; ok: number; total: number };

const { runDecoderCheck } = require("../bench/lib/decoder-cases") as {
  runDecoderCheck(
    decode: typeof decodeMethodResponse,
    randomDocs?: number,
  ): Promise<{ groups: Group[]; failures: unknown[]; compared: number }>;
};

test("the decoder agrees with the xmlrpc package, and with the expected values where the package does not go", async () => {
  // 150 random documents (the bench uses 400): about a second here, each rewritten 11 ways.
  const { groups, failures, compared } = await runDecoderCheck(decodeMethodResponse, 150);
  expect(compared).toBeGreaterThan(2000);
  expect(failures).toEqual([]);
  expect(groups.filter((g) => g.ok !== g.total)).toEqual([]);
  expect(groups.map((g) => g.id)).toEqual(expect.arrayContaining(["decode.expected", "decode.malformed"]));
});

test("a dateTime with an offset is the exact text sent, whatever the machine's time zone", () => {
  const xml = (t: string) =>
    `<methodResponse><params><param><value><dateTime.iso8601>${t}</dateTime.iso8601></value></param></params></methodResponse>`;
  expect(decodeMethodResponse(xml("2026-01-21T10:34:09+05:00"))).toEqual({
    kind: "value",
    value: "2026-01-21T10:34:09+05:00",
  });
  expect(() => decodeMethodResponse(xml("not a date"))).toThrow(/ISO 8601/);
});
