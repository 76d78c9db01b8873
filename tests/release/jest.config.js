/**
 * The release as users meet it (tests/release/): `npm run release` built once (setup.js), its artifacts checked,
 * published into local registries and installed from them in projects outside the repository, and the upgrade from
 * the previous release. Minutes long, so outside `npm test`: `npm run test:release`, which `.ci/run` runs.
 */
const path = require("path");
const main = require("../../jest.config.js");
const engine = main.projects.find((p) => p.displayName === "engine");
const rootDir = path.resolve(__dirname, "../..");

module.exports = {
  ...main,
  rootDir,
  globalSetup: "<rootDir>/tests/release/setup.js",
  globalTeardown: "<rootDir>/tests/release/teardown.js",
  projects: [
    {
      ...engine,
      rootDir,
      displayName: "release",
      testRegex: ["/tests/release/.*\\.test\\.ts$"],
      testPathIgnorePatterns: ["/node_modules/"],
    },
  ],
};
