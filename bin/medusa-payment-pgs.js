#!/usr/bin/env node
/**
 * `npx medusa-payment-pgs sandbox [options]`. Uses the compiled sandbox of an installed package; in a checkout
 * without a build it runs the TypeScript sources through tsx (a dev dependency).
 */
const path = require("node:path")
const fs = require("node:fs")

const [command, ...rest] = process.argv.slice(2)
if (command !== "sandbox") {
  console.error("Usage: medusa-payment-pgs sandbox [--port N] [--help]")
  process.exit(command ? 1 : 0)
}
const root = path.resolve(__dirname, "..")
const compiled = path.join(root, ".medusa/server/sandbox/cli.js")
if (fs.existsSync(compiled)) {
  require(compiled).main(rest).catch((e) => {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  })
} else {
  require("tsx/cjs")
  require(path.join(root, "sandbox/cli.ts")).main(rest).catch((e) => {
    console.error(e instanceof Error ? e.message : e)
    process.exit(1)
  })
}
