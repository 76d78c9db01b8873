/** Closes the release suite's artifact server and removes the release (setup.js), then the main suite's teardown. */
const fs = require("fs");
const mainTeardown = require("../support/teardown.js");

module.exports = async () => {
  const r = globalThis.cdnRelease;
  if (r) {
    await new Promise((resolve) => r.server.close(resolve));
    if (r.dir) fs.rmSync(r.dir, { recursive: true, force: true });
  }
  await mainTeardown();
};
