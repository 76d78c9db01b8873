/**
 * Jest global setup: marks the run for the leak check (leaks.js) and makes the real `__provider`
 * texts once for every in-process test of the run (provider-texts.js, from the built package).
 */
const { execFileSync } = require("child_process");
const fs = require("fs");
const os = require("os");
const path = require("path");
const leaks = require("./leaks");

module.exports = async function setup() {
  await leaks.setup();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cdn-provider-texts-"));
  const file = path.join(dir, "texts.json");
  execFileSync(process.execPath, [path.join(__dirname, "provider-texts.js"), file], {
    stdio: ["ignore", "ignore", "inherit"],
  });
  process.env.CDN_TEST_PROVIDER_TEXTS = file;
};
