// Jest with @swc/jest, as Medusa projects do. `npm test` (scripts/test.js) picks the database first.
const swc = ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true }, target: "es2022" }, module: { type: "commonjs" } }]

module.exports = {
  testEnvironment: "node",
  moduleFileExtensions: ["ts", "js", "mjs", "json"],
  transform: { "^.+\\.ts$": swc },
  modulePathIgnorePatterns: ["<rootDir>/dist/", "<rootDir>/.medusa/", "<rootDir>/storefront-widget/"],
  testMatch: ["<rootDir>/src/**/__tests__/**/*.spec.ts", "<rootDir>/integration-tests/**/*.spec.ts"],
  setupFiles: ["<rootDir>/integration-tests/setup.js"],
  // The widget's sources import "./x.js" for x.ts (scripts/jest-resolver.js).
  resolver: "<rootDir>/scripts/jest-resolver.js",
  // After jest's own summary: the ten slowest suites and the total, so every run shows where the time goes.
  reporters: ["default", "<rootDir>/scripts/slowest-suites-reporter.js"],
  // The longest suites first (scripts/suite-seconds.json), also on a fresh clone where jest has no durations.
  testSequencer: "<rootDir>/scripts/test-sequencer.js",
  testTimeout: 60_000,
  // Each Medusa boot leaves memory behind in its worker; with 110+ suites one worker reached V8's heap limit and
  // died mid-suite. A worker above this after a suite is replaced by a fresh one.
  workerIdleMemoryLimit: "1536MB",
}
