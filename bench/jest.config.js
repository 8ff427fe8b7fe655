// Benchmarks that need the Medusa test store run through jest like the HTTP suites (same harness, same database
// selection via scripts/test.js); they print their JSON summary straight to stdout as the last line.
const base = require("../jest.config")

module.exports = {
  ...base,
  rootDir: "..",
  testMatch: ["<rootDir>/bench/**/*.bench.ts"],
  testTimeout: 900_000,
  // A bench's JSON summary must stay the last line: no timing table after it.
  reporters: ["default"],
}
