/**
 * Jest runs the TypeScript tests directly (ts-jest); the dynamic-provider host and emulator CLI use the compiled dist/.
 * Three projects: `fast` runs in process (the provider's own entry called in the engine's order: tests/support/stack.ts),
 * `host` starts real processes (the emulator CLI, Python, npm, the testing kit over the real `pulumi` CLI), `engine`
 * runs real Pulumi projects with the `pulumi` CLI (tests/engine/). `npm test` runs all three; `npm run test:fast`
 * only the first, for the edit loop; `npm run test:engine` only the last.
 */
const shared = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
  // jest loads @pulumi/pulumi afresh in every test file; these parts of it load on first use (tests/support/lazy).
  // moduleNameMapper sees the import string only, not who imports it: today only the SDK itself imports these
  // three names (a grep of node_modules, provider/ and tests/); a stand-in is no class, so `new` of one would fail.
  moduleNameMapper: {
    "^(\\.\\./\\.\\./|\\./)typescript-shim$": "<rootDir>/tests/support/lazy/typescript-shim.js",
    "^@npmcli/arborist$": "<rootDir>/tests/support/lazy/arborist.js",
    "^\\./automation$": "<rootDir>/tests/support/lazy/automation.js",
  },
};

/**
 * Test files that start a process (a dynamic-provider host, the emulator CLI, a Python server, npm) or load the
 * TypeScript compiler for a whole-program check. New ones are named `*.host.test.ts`. Regular expressions over the path, as testPathIgnorePatterns takes them.
 */
const HOST = [
  "\\.host\\.test\\.ts$",
  "/tests/e2e/.*\\.test\\.ts$",
  "/tests/package/.*\\.test\\.ts$",
  "/tests/reliability/persistence\\.test\\.ts$",
  "/tests/integration/(emulator-cli|emulator-python|emulator-throughput|strict-server)\\.test\\.ts$",
];
/** The real-engine suite: real Pulumi projects run with the `pulumi` CLI (scripts/pulumi-cli.js gets it). */
const ENGINE = ["/tests/engine/.*\\.test\\.ts$"];
// tests/gitops/ and tests/release/: minutes long, each has its own config (npm run test:gitops, test:release).
const IGNORED = ["/node_modules/", "/tests/bench/", "/tests/gitops/", "/tests/release/"];

module.exports = {
  testTimeout: 60000,
  // Two workers on this 2-core machine: the host suites spend much of their time waiting on the
  // processes they start, so one worker left a core idle.
  maxWorkers: 2,
  globalSetup: "<rootDir>/tests/support/setup.js",
  globalTeardown: "<rootDir>/tests/support/teardown.js",
  projects: [
    {
      ...shared,
      displayName: "fast",
      testMatch: ["**/*.test.ts"],
      testPathIgnorePatterns: [...IGNORED, ...HOST, ...ENGINE],
    },
    { ...shared, displayName: "host", testRegex: HOST, testPathIgnorePatterns: [...IGNORED, ...ENGINE] },
    { ...shared, displayName: "engine", testRegex: ENGINE, testPathIgnorePatterns: IGNORED },
  ],
};
