// Jest with @swc/jest, as Medusa projects do. `npm test` (scripts/test.js) picks the database first.
const swc = ["@swc/jest", { jsc: { parser: { syntax: "typescript", decorators: true }, target: "es2022" }, module: { type: "commonjs" } }]

module.exports = {
  testEnvironment: "node",
  moduleFileExtensions: ["ts", "js", "mjs", "json"],
  transform: { "^.+\\.ts$": swc },
  modulePathIgnorePatterns: ["<rootDir>/dist/", "<rootDir>/.medusa/", "<rootDir>/storefront-widget/"],
  testMatch: ["<rootDir>/src/**/__tests__/**/*.spec.ts", "<rootDir>/integration-tests/**/*.spec.ts"],
  setupFiles: ["<rootDir>/integration-tests/setup.js"],
  testTimeout: 60_000,
}
