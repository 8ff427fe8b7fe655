/**
 * Jest reporter for `npm test`: after the run, the ten slowest suites and jest's wall time, so every CI log
 * ends saying where the time went (the budget and how to keep it: docs/contributing.md).
 */
const fs = require("node:fs")
const path = require("node:path")

const SHOWN = 10

class SlowestSuitesReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir
  }

  onRunStart() {
    this.startedAt = Date.now()
  }

  onRunComplete(_contexts, results) {
    const suites = results.testResults
      .map((suite) => ({ file: path.relative(this.rootDir, suite.testFilePath), seconds: (suite.perfStats.end - suite.perfStats.start) / 1000, tests: suite.numPassingTests + suite.numFailingTests + suite.numPendingTests }))
      .filter((suite) => Number.isFinite(suite.seconds) && suite.seconds > 0)
      .sort((a, b) => b.seconds - a.seconds)
    const wall = (Date.now() - this.startedAt) / 1000
    const summed = suites.reduce((sum, suite) => sum + suite.seconds, 0)
    const lines = [``, `Slowest ${Math.min(SHOWN, suites.length)} of ${suites.length} suites (budget: npm test within 15 minutes, docs/contributing.md):`]
    for (const suite of suites.slice(0, SHOWN)) lines.push(`  ${minutes(suite.seconds).padStart(8)}  ${suite.file} (${suite.tests} tests)`)
    lines.push(`Total: ${minutes(wall)} wall time for ${results.numTotalTests} tests in ${results.numTotalTestSuites} suites (${minutes(summed)} of suite time over the workers)`)
    // Under scripts/test.js the table is printed after jest's own summary, as the run's last lines.
    if (process.env.PGS_TEST_TIMINGS_FILE) fs.writeFileSync(process.env.PGS_TEST_TIMINGS_FILE, lines.join("\n") + "\n")
    else console.log(lines.join("\n"))
  }
}

function minutes(seconds) {
  const whole = Math.round(seconds)
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`
}

module.exports = SlowestSuitesReporter
