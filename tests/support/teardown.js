/** Jest global teardown: the leak check (leaks.js), then the provider texts the setup made are removed. */
const fs = require("fs");
const path = require("path");
const leaks = require("./leaks");

module.exports = async function teardown() {
  const file = process.env.CDN_TEST_PROVIDER_TEXTS;
  if (file) fs.rmSync(path.dirname(file), { recursive: true, force: true });
  await leaks.teardown();
};
