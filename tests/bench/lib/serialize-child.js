/**
 * Serializes providers exactly as `dynamic.Resource` does (`serializeFunction(() => provider,
 * { allowSecrets: true })`, @pulumi/pulumi/dynamic/index.js) and prints one JSON line:
 * { [name]: { bytes } | { error } }. Run in its own process, from the directory it is given,
 * because the closure serializer decides "require it" or "copy it by value" from module paths
 * relative to the working directory (node_modules or not).
 *
 * usage: node serialize-child.js PACKAGE_DIR   (the pulumi-cdn-zones to load: workspace or installed copy)
 */
"use strict";
const path = require("path");

const pkg = process.argv[2];
const req = (p) => require(require.resolve(p, { paths: [process.cwd()] }));
const { serializeFunction } = req("@pulumi/pulumi/runtime/closure/serializeClosure");
const { CdnClient } = require(pkg);
const { PROVIDERS } = require(path.join(pkg, "dist/resources/provider"));
const CACHE_PURGE_PROVIDER = require(path.join(pkg, "dist/resources/providers/purge"));

const settings = { baseUrl: "http://127.0.0.1:9", apiUserId: 1, apiKey: "not-a-real-key" };
const client = new CdnClient(settings);

/** What a hand-written dynamic provider usually looks like: the client made once, captured. */
const capturesClient = {
  async create(inputs) {
    const r = await client.pullzone.create({ values: { name: inputs.name, origin: inputs.origin } });
    return { id: String(r.id), outs: { ...inputs, ...r } };
  },
  async read(id, props) {
    const row = (await client.pullzone.listZones()).find((z) => String(z.id) === id);
    return { id: row ? id : "", props: row ?? props };
  },
};

/** The other usual shape: the class captured, a client made per call. */
const capturesClass = {
  async create(inputs) {
    const c = new CdnClient(settings);
    const r = await c.pullzone.create({ values: { name: inputs.name, origin: inputs.origin } });
    return { id: String(r.id), outs: { ...inputs, ...r } };
  },
};

/** The line of the serializer's message that says why (it also prints the chain and the code). */
function reason(message) {
  const lines = message.split("\n").map((l) => l.trim());
  const i = lines.findIndex((l) => / because$|because /.test(l));
  return (i >= 0 ? `${lines[i - 1] ?? ""} ${lines[i]} ${lines[i + 1] ?? ""}` : (lines.find(Boolean) ?? message))
    .replace(/\s+/g, " ")
    .trim();
}

async function main() {
  const out = {};
  const all = {
    ...PROVIDERS,
    CachePurge: CACHE_PURGE_PROVIDER,
    naiveClient: capturesClient,
    naiveClass: capturesClass,
  };
  for (const [name, provider] of Object.entries(all)) {
    const t0 = Date.now();
    try {
      const r = await serializeFunction(() => provider, { allowSecrets: true });
      out[name] = {
        bytes: Buffer.byteLength(r.text),
        ms: Date.now() - t0,
        secrets: r.containsSecrets,
        holdsApiKey: r.text.includes(settings.apiKey),
      };
    } catch (e) {
      out[name] = { error: reason(String(e.message)), ms: Date.now() - t0 };
    }
  }
  client.close();
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((e) => {
  process.stderr.write(`${e.stack}\n`);
  process.exit(1);
});
