#!/usr/bin/env node
/**
 * `npm run pack:plugin`: the provider plugin as one tarball a user installs offline with one command,
 *   pulumi plugin install resource cdn <version> --file pulumi-resource-cdn-v<version>.tar.gz
 * It holds the launcher the engine runs (`pulumi-resource-cdn`, a shell script starting node on the package's
 * bin/pulumi-resource-cdn) and a node_modules with the package (`npm pack` of provider/) and its dependencies,
 * `@pulumi/pulumi` at the version the tests run, installed by npm from the registry (or its cache). The plugin
 * needs Node.js 20 or newer on PATH where it runs, nothing else. Usage:
 *   node scripts/pack-plugin.js [--out DIR]     (default: the repository's root); prints the tarball's path
 */
"use strict";
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");

const ROOT = path.resolve(__dirname, "..");
const LAUNCHER = `#!/bin/sh
# The cdn provider plugin: the package's bin/pulumi-resource-cdn, with this folder's node_modules.
here=$(dirname "$0")
exec node "$here/node_modules/pulumi-cdn-zones/bin/pulumi-resource-cdn" "$@"
`;

const sh = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/** Writes the tarball into `outDir`; returns its path. */
function packPlugin(outDir = ROOT) {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "provider/package.json"), "utf8"));
  const sdk = JSON.parse(fs.readFileSync(path.join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-plugin-pack-"));
  try {
    const packed = sh("npm", ["pack", "-w", "provider", "--pack-destination", work, "--silent"], ROOT).trim();
    const stage = path.join(work, "plugin");
    fs.mkdirSync(stage);
    fs.writeFileSync(path.join(stage, "package.json"), JSON.stringify({ name: "pulumi-resource-cdn", private: true }));
    const npm = ["install", "--omit=dev", "--no-audit", "--no-fund", "--no-package-lock"];
    sh("npm", [...npm, path.join(work, packed.split("\n").pop()), `@pulumi/pulumi@${sdk}`], stage);
    fs.rmSync(path.join(stage, "package.json"));
    fs.writeFileSync(path.join(stage, "pulumi-resource-cdn"), LAUNCHER, { mode: 0o755 });
    const tarball = path.join(path.resolve(outDir), `pulumi-resource-cdn-v${version}.tar.gz`);
    sh("tar", ["-czf", tarball, "-C", stage, "."], ROOT);
    return tarball;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

module.exports = { packPlugin };

if (require.main === module) {
  const at = process.argv.indexOf("--out");
  process.stdout.write(`${packPlugin(at > 0 ? process.argv[at + 1] : ROOT)}\n`);
}
