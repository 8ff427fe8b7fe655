/**
 * Jest's order for `npm test`: the longest suites first, so that on 2 cores the last minutes are not one worker
 * finishing a 4-minute suite while the others idle. Jest itself orders by the durations it recorded on this machine,
 * else by file size; a fresh clone (CI) has no durations, and a suite whose behaviours live in behaviours/ files is a
 * small file that runs long, so it started last (7 December: four such suites ran in the last 4 minutes, the
 * processor 20–45% idle meanwhile). scripts/suite-seconds.json holds each slow suite's seconds from a full run
 * (refresh it from the run's own table, scripts/slowest-suites-reporter.js, when suites move); a suite it does not
 * name keeps jest's order after them.
 */
const path = require("node:path")
const Sequencer = require("@jest/test-sequencer").default
const seconds = require("./suite-seconds.json")

const ROOT = path.join(__dirname, "..")

class LongestFirst extends Sequencer {
  sort(tests) {
    const jestOrder = super.sort(tests)
    const known = (test) => seconds[path.relative(ROOT, test.path).split(path.sep).join("/")] ?? -1
    // Array.prototype.sort is stable: suites the file does not name keep jest's order among themselves.
    return [...jestOrder].sort((a, b) => known(b) - known(a))
  }
}

module.exports = LongestFirst
