/**
 * Prints, as one JSON line, the `__provider` text each resource kind stores in state: each zone kind
 * of the table and CachePurge are constructed from the built package under
 * `pulumi.runtime.setMocks`, and the text is what `dynamic.Resource` serialized. Plain Node, never
 * jest: `runtime.serializeFunction` must not run inside jest's vm (see tests/support/providerTexts.ts).
 *
 * usage: node tests/support/provider-texts.js [OUT_FILE]   (writes the JSON there instead of stdout)
 */
"use strict";
const fs = require("fs");
const path = require("path");

const ROOT = path.resolve(__dirname, "../..");
process.chdir(ROOT); // the closure serializer decides "require it" or "copy it" from paths relative to here
const pulumi = require(require.resolve("@pulumi/pulumi", { paths: [ROOT] }));
const cdn = require(path.join(ROOT, "provider"));

// The zone kinds and a valid minimal zone of each come from the kinds' table, so a new row needs no edit here.
const { ZONE_KIND_TABLE } = require(path.join(ROOT, "provider/dist/api/zoneKinds"));
const ZONES = Object.values(ZONE_KIND_TABLE);
const KINDS = [...ZONES.map((row) => row.type), "CachePurge"];
const ARGS = Object.fromEntries(ZONES.map((row) => [row.type, { name: "p", ...row.example }]));
ARGS.CachePurge = { urls: ["https://a.example.com/x"] };

async function main() {
  const texts = {};
  const seen = [];
  await pulumi.runtime.setMocks(
    {
      newResource: (a) => {
        const kind = a.type.split(":").pop();
        seen.push(
          Promise.resolve(a.inputs.__provider).then((t) => {
            texts[kind] = t;
          }),
        );
        return { id: `${a.name}-id`, state: {} };
      },
      call: () => ({}),
    },
    "project",
    "dev",
    false,
  );
  for (const k of KINDS) {
    if (!cdn[k]) throw new Error(`the built package exports no ${k}: run npm run generate and npm run build`);
    new cdn[k](`text-${k}`, ARGS[k]);
  }
  // Registrations finish asynchronously: wait until every kind's text arrived.
  while (Object.keys(texts).length < KINDS.length) {
    await new Promise((r) => setImmediate(r));
    await Promise.all(seen);
  }
  const json = JSON.stringify(texts);
  if (process.argv[2]) fs.writeFileSync(process.argv[2], json);
  else process.stdout.write(`${json}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
