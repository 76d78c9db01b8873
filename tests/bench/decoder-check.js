/**
 * Correctness gate of the client's XML-RPC decoder (provider/api/xmlrpc/read.ts) before its speed is
 * measured: the cases of lib/decoder-cases.js against the compiled decoder. Prints one line per
 * group and exits non-zero on any difference. run.js runs it first; npm test runs the same cases
 * against the source (tests/unit/decoder-check.test.ts).
 */
"use strict";
const path = require("path");
const { decodeMethodResponse } = require(path.resolve(__dirname, "../../provider/dist/api/xmlrpc"));
const { emit, figure } = require("./lib/report");
const { runDecoderCheck } = require("./lib/decoder-cases");

async function main() {
  const { groups, failures, compared } = await runDecoderCheck(decodeMethodResponse);
  const figures = groups.map((g) =>
    figure(g.id, g.label, g.ok, `of ${g.total}`, { target: { text: "all", met: g.ok === g.total } }),
  );
  emit(
    "decoder",
    `Decoder correctness (provider/api/xmlrpc/read.ts vs the xmlrpc package's Deserializer, ${compared} documents)`,
    figures,
  );
  for (const f of failures)
    console.log(JSON.stringify(f, (k, v) => (v === undefined ? "<undefined>" : v), 1).slice(0, 1500));
  if (failures.length) process.exitCode = 1;
}

if (require.main === module) main();
