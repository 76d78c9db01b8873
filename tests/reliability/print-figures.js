#!/usr/bin/env node
/** Prints the figures the reliability tests and the soak wrote in their last run (see figures.ts). */
const fs = require("fs");
const os = require("os");
const path = require("path");

const dir = process.env.CDN_FIGURES_DIR || path.join(os.tmpdir(), "pulumi-cdn-zones-figures");
if (!fs.existsSync(dir)) {
  console.log(`no figures in ${dir}: run npm test (and npm run soak) first`);
  process.exit(0);
}
for (const f of fs
  .readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  console.log(`${f.replace(/\.json$/, "")}: ${JSON.stringify(JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")))}`);
}
