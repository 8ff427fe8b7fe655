// Medusa's test runners share MikroORM metadata through a global; clear it per test file (Medusa docs, "Testing Tools").
const { MetadataStorage } = require("@medusajs/framework/mikro-orm/core")
MetadataStorage.clear()

// The row restore (support/row-restore.ts) ends the store's pooled connections before each test, as Medusa's runner
// does when it drops the database; knex then logs each as "Connection Error: Connection ended unexpectedly" (its
// pool replaces them). Some 400 of those a run buried the one failure CI printed. Only that exact line is dropped;
// a query on a lost connection still fails its test with its own error.
const ENDED_BY_RESTORE = /^Connection Error: (Error: )?Connection ended unexpectedly$/
const log = console.log.bind(console)
console.log = (...args) => {
  if (args.length === 1 && typeof args[0] === "string" && ENDED_BY_RESTORE.test(args[0].replace(/\u001b\[[0-9;]*m/g, ""))) return
  log(...args)
}
