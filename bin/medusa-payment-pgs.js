#!/usr/bin/env node
/**
 * `npx medusa-payment-pgs sandbox [options]`, `npx medusa-payment-pgs --help`, `npx medusa-payment-pgs --version`. In this repository (TypeScript sources and tsx present) it runs the
 * sources, so a stale build never answers; an installed package runs its compiled sandbox.
 */
const path = require("node:path")
const fs = require("node:fs")

const [command, ...rest] = process.argv.slice(2)
if (["--version", "-v", "version"].includes(command)) {
  console.log(`medusa-payment-pgs ${require("../package.json").version}`)
  process.exit(0)
}
const root = path.resolve(__dirname, "..")
const source = path.join(root, "sandbox/cli.ts")
const compiled = path.join(root, ".medusa/server/sandbox/cli.js")

function hasTsx() {
  try {
    require.resolve("tsx/cjs", { paths: [root] })
    return true
  } catch {
    return false
  }
}

let cli
if (fs.existsSync(source) && hasTsx()) {
  require("tsx/cjs")
  cli = require(source)
} else if (fs.existsSync(compiled)) {
  cli = require(compiled)
} else {
  console.error("The sandbox is not built: run `npm run build` first.")
  process.exit(1)
}
if (command === undefined || ["help", "--help", "-h"].includes(command)) {
  console.log(cli.HELP)
  process.exit(0)
}
if (command !== "sandbox") {
  console.error(`Unknown command "${command}".\n\n${cli.HELP}`)
  process.exit(1)
}
cli.main(rest).catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
