/**
 * Medusa's test runner migrates a fresh database for every store suite (all of Medusa's modules, the plugin's and
 * the links: the largest part of a boot). Within one `npm test` the migrations are the same for every suite, so the
 * first suite migrates one template database (`medusa db:migrate`, as a store does) and the suites after it start
 * from a copy of it (`CREATE DATABASE … TEMPLATE`). The runner still runs its migrations and link sync on the copy and
 * finds nothing left to do (finding that out takes about half as long as migrating): the same database, sooner.
 *
 * scripts/test.js names the run (PGS_TEST_RUN_ID) and drops the template when jest ends. Without a run id (jest
 * started another way) nothing is copied and the runner migrates as before.
 */
import type { Client as PgClient } from "pg"
import { runCli } from "../../../scripts/demo/medusa"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require("pg") as typeof import("pg")
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { migratedTemplateName } = require("../../../scripts/migrated-template")

const credentials = () => ({
  host: process.env.DB_HOST ?? "localhost",
  port: Number(process.env.DB_PORT ?? 5432),
  user: process.env.DB_USERNAME ?? "postgres",
  password: process.env.DB_PASSWORD || undefined,
})

const databaseUrl = (name: string) => {
  const c = credentials()
  const auth = `${encodeURIComponent(c.user)}${c.password ? `:${encodeURIComponent(c.password)}` : ""}`
  return `postgres://${auth}@${c.host}:${c.port}/${name}`
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

async function exists(client: PgClient, name: string) {
  return (await client.query("select 1 from pg_database where datname = $1", [name])).rowCount === 1
}

/**
 * Creates `databaseName` as a copy of this run's migrated template; the first suite to ask builds the template.
 * A suite that asks while another builds it does not wait: it creates nothing and the runner migrates a fresh
 * database, as it did before (waiting would cost the run's first suites more than migrating does).
 */
export async function createFromMigratedTemplate(databaseName: string): Promise<void> {
  const template: string | null = migratedTemplateName(process.env)
  if (!template) return
  const client = new Client({ ...credentials(), database: "postgres" })
  await client.connect()
  try {
    if (!(await exists(client, template))) {
      const { rows } = await client.query("select pg_try_advisory_lock(hashtext($1)) as builder", [template])
      if (!rows[0].builder) return
      try {
        if (!(await exists(client, template))) await build(client, template)
      } finally {
        await client.query("select pg_advisory_unlock(hashtext($1))", [template])
      }
    }
    await client.query(`create database ${quote(databaseName)} template ${quote(template)}`)
  } finally {
    await client.end()
  }
}

async function build(client: PgClient, template: string) {
  // Built under another name and renamed when complete: a run stopped half-way leaves no half-migrated template.
  const building = `${template}-building`
  await client.query(`drop database if exists ${quote(building)} with (force)`)
  await client.query(`create database ${quote(building)}`)
  // What the runner does on a fresh database: module migrations and link sync, no migration scripts.
  await runCli(["db:migrate", "--skip-scripts", "--execute-all-links"], { DATABASE_URL: databaseUrl(building) })
  await client.query(`alter database ${quote(building)} rename to ${quote(template)}`)
}
