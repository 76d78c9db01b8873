#!/usr/bin/env node
/**
 * `npm run clean-cache`: lists what the repository's tools keep outside the work tree and in node_modules/.cache, with
 * sizes, and removes it (`--list` only lists). Two places:
 *   the shared cache (~/.cache/pulumi-cdn-zones/pulumi-cli, $XDG_CACHE_HOME, or CDN_ZONES_PULUMI_CACHE): what is the
 *     same for every clone, each entry named by its version or the hash of the sources it is built from (the
 *     `pulumi` CLI, the YAML host, the SDK generators, Node's binaries for the plugin, the Python wheels, the local
 *     registries of the release suite), so a clone never runs what another clone's different sources made;
 *   this clone's node_modules/.cache: the folder beside the CLI with this clone's language hosts and launchers
 *     (scripts/pulumi-cli.js), and the tests' provider texts (tests/support/setup.js).
 * Another clone keeps working after a clean: its folder holds hard links to the CLI, and the rest is made again on
 * its next run. Go's, npm's and pip's own caches are theirs to clean (`go clean -cache -modcache`, `npm cache clean
 * --force`, `pip cache purge`).
 */
"use strict";
const fs = require("fs");
const path = require("path");
const { cacheRoot } = require("./pulumi-cli");

const ROOT = path.resolve(__dirname, "..");
const CLONE = [
  path.join(ROOT, "node_modules/.cache/pulumi-cdn-zones"),
  path.join(ROOT, "node_modules/.cache/cdn-provider-texts"),
];

/** Bytes under `p` (files counted once per inode: the clone's CLI is a hard link to the shared one). */
function size(p, seen = new Set()) {
  const st = fs.lstatSync(p);
  if (st.isDirectory()) return fs.readdirSync(p).reduce((n, e) => n + size(path.join(p, e), seen), 0);
  if (seen.has(st.ino)) return 0;
  seen.add(st.ino);
  return st.size;
}
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;

function main(list) {
  const shared = cacheRoot();
  const entries = [
    ...(fs.existsSync(shared) ? fs.readdirSync(shared).map((e) => path.join(shared, e)) : []),
    ...CLONE.filter((p) => fs.existsSync(p)),
  ];
  let total = 0;
  const seen = new Set();
  for (const p of entries) {
    const n = size(p, seen);
    total += n;
    process.stdout.write(`${mb(n).padStart(10)}  ${p}\n`);
    if (!list) fs.rmSync(p, { recursive: true, force: true });
  }
  process.stdout.write(`${mb(total).padStart(10)}  ${list ? "in all" : "removed"}\n`);
}

if (require.main === module) main(process.argv.includes("--list"));
