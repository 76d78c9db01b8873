/** Jest runs the TypeScript tests directly (ts-jest); the dynamic-provider host and emulator CLI use the compiled dist/. */
module.exports = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/tests/bench/"],
  testTimeout: 60000,
  // Two workers on this 2-core machine: the lifecycle suites spend much of their time waiting on the
  // host and emulator processes they start, so one worker left a core idle (npm test: 2 min 15 s -> under 2 min).
  maxWorkers: 2,
  globalSetup: "<rootDir>/tests/support/setup.js",
  globalTeardown: "<rootDir>/tests/support/teardown.js",
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
};
