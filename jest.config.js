/** Jest runs the TypeScript tests directly (ts-jest); the dynamic-provider host and emulator CLI use the compiled dist/. */
module.exports = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/tests"],
  testMatch: ["**/*.test.ts"],
  testPathIgnorePatterns: ["/node_modules/", "/tests/bench/"],
  testTimeout: 60000,
  globalSetup: "<rootDir>/tests/support/setup.js",
  globalTeardown: "<rootDir>/tests/support/teardown.js",
  transform: { "^.+\\.ts$": ["ts-jest", { tsconfig: "tsconfig.json" }] },
};
