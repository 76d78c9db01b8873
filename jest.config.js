/**
 * Jest runs the TypeScript tests directly (ts-jest); the dynamic-provider host and emulator CLI use the compiled dist/.
 * Four projects: `fast` runs in process (the provider's own entry called in the engine's order: tests/support/stack.ts),
 * `host` starts real processes (the emulator CLI, Python, npm, the testing kit over the real `pulumi` CLI), `engine`
 * runs real Pulumi projects with the `pulumi` CLI (tests/engine/, one or two files per mission row), `stories` the rest
 * of tests/engine/ and the packed package. `npm test` runs the first three; `npm run test:fast` only the first, for the
 * edit loop; `npm run test:engine` only the third; `npm run test:stories` only the last.
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
/**
 * The real-engine suite of `npm test`: real Pulumi projects run with the `pulumi` CLI (scripts/pulumi-cli.js gets
 * it), one file or two per mission row: zones as code and drift (lifecycle), functions, every language (plugin-yaml
 * with `pulumi import`, plugin-python; the Go and C# SDKs are built in tests/package/sdks.test.ts), a whole
 * organisation (many-stacks), the emulator in a user's offline work (example, testing-kit), secrets, 0.1.0's states
 * (host), and the projects and language host a user's Pulumi runs.
 */
const ENGINE = [
  "/tests/engine/(lifecycle|functions|plugin-yaml|plugin-python|many-stacks|example|testing-kit|secrets|host|projects|language-host)\\.test\\.ts$",
];
/**
 * The stories: every other real-CLI file (the languages' parity table, trust, convergence, day 2, interrupts) and the
 * packed package installed from the registry. About twice as long as `npm test`, so outside it, which keeps `npm test`
 * within its 8 minutes: `npm run test:stories`, which `.ci/run` runs. A new file of tests/engine/ is a story unless
 * named above.
 */
const STORIES = ["/tests/engine/.*\\.test\\.ts$", "/tests/package/pack\\.test\\.ts$"];
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
      testPathIgnorePatterns: [...IGNORED, ...HOST, ...STORIES],
    },
    { ...shared, displayName: "host", testRegex: HOST, testPathIgnorePatterns: [...IGNORED, ...STORIES] },
    { ...shared, displayName: "engine", testRegex: ENGINE, testPathIgnorePatterns: IGNORED },
    { ...shared, displayName: "stories", testRegex: STORIES, testPathIgnorePatterns: [...IGNORED, ...ENGINE] },
  ],
};
