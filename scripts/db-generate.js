#!/usr/bin/env node
/**
 * `npm run db:generate`: Medusa's own migration generator for the plugin's module (`medusa plugin:db:generate`),
 * run through tsx so it can load the TypeScript models. What Medusa's bin would do, minus its ts-node attempt, which
 * prints a stack trace here (FRAMEWORK-NOTES 74): load .env, then run the CLI's entry.
 * The generator compares the models with src/modules/pgs/migrations/.snapshot-medusa-pgs.json, not with a database,
 * but it connects to PostgreSQL through DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD or DATABASE_URL (default
 * localhost:5432). DB_USERNAME defaults to postgres here, as in `npm test`; Medusa's own default is none.
 */
const { spawnSync } = require("node:child_process")
const path = require("node:path")

const cliDir = path.dirname(require.resolve("@medusajs/cli/package.json"))
require(require.resolve("dotenv", { paths: [cliDir] })).config()

const env = { ...process.env, DB_USERNAME: process.env.DB_USERNAME || "postgres" }
const cli = path.join(cliDir, "dist/index.js")
const run = spawnSync(process.execPath, ["--import", "tsx", cli, "plugin:db:generate", ...process.argv.slice(2)], { stdio: "inherit", env })
process.exit(run.status ?? 1)
