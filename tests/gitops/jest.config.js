/**
 * The GitOps simulation (tests/gitops/, examples/gitops/sim/): the workflow's jobs played through days against
 * PostgreSQL and the emulator. Minutes long, so outside `npm test`: `npm run test:gitops`, which `.ci/run` runs.
 */
const path = require("path");
const main = require("../../jest.config.js");
const engine = main.projects.find((p) => p.displayName === "engine");
const rootDir = path.resolve(__dirname, "../..");

module.exports = {
  ...main,
  rootDir,
  projects: [
    {
      ...engine,
      rootDir,
      displayName: "gitops",
      testRegex: ["/tests/gitops/.*\\.test\\.ts$"],
      testPathIgnorePatterns: ["/node_modules/"],
    },
  ],
};
