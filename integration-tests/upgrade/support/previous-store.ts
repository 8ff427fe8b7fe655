/**
 * The store as the previous release makes it before any shopper comes: its migrations (`medusa db:migrate`), the
 * demo catalogue of its seed (scripts/demo/seed.ts of the folder the CLI runs in) and a dashboard user, made by the
 * CLI of the store folder the release is installed in (the upgrade suite) or of its rebuilt tree (the side-by-side
 * suite). Made once and kept in PostgreSQL as a database named by the caller (after the commit); each run copies it
 * (`create database … template`, about a second instead of two minutes of CLI boots). Everything after this
 * (payments, the upgrade) is done in the copy, on every run.
 */
import type { Env, MedusaCli } from "../../../scripts/demo/medusa"
import { dropDatabase } from "../../../scripts/demo/database"
import { waitFor } from "../../support/sandbox"
import { Pg as Client, type PgClient } from "./postgres"

/** The dashboard user the store is made with (kept in the copied database, so one place says it). */
export const ADMIN = { email: "admin@pgs.upgrade", password: "upgrade-suite" }

const withDatabase = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString()

async function onServer<T>(url: string, body: (client: PgClient) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: withDatabase(url, "postgres") })
  await client.connect()
  try {
    return await body(client)
  } finally {
    await client.end()
  }
}

/**
 * Creates the database of `url` as the previous release's fresh store, with ADMIN able to log in. `template` names
 * the kept database (builds of several commits may make the same store: the side-by-side suite's, by content).
 */
export async function previousStore(previous: { cli: Pick<MedusaCli, "runCli"> }, url: string, env: Env, template: string): Promise<void> {
  const exists = () => onServer(url, async (c) => (await c.query("select 1 from pg_database where datname = $1", [template])).rows.length > 0)
  if (!(await exists())) {
    // Made under another name and renamed when whole, so a half-made store is never copied.
    const partial = `${template}_partial_${process.pid}`
    const partialUrl = withDatabase(url, partial)
    await dropDatabase(partialUrl)
    await onServer(url, (c) => c.query(`create database "${partial}"`))
    try {
      const storeEnv = { ...env, DATABASE_URL: partialUrl }
      await previous.cli.runCli(["db:migrate"], storeEnv)
      // One after the other: each CLI command creates Medusa's default store on a fresh database (topology store.ts).
      await previous.cli.runCli(["exec", "./scripts/demo/seed.ts"], storeEnv)
      await previous.cli.runCli(["user", "-e", ADMIN.email, "-p", ADMIN.password], storeEnv)
      await onServer(url, (c) => c.query(`alter database "${partial}" rename to "${template}"`)).catch(async (error) => {
        if (!(await exists())) throw error // another run made it first: theirs is as good
      })
    } finally {
      await dropDatabase(partialUrl)
    }
  }
  const name = new URL(url).pathname.slice(1)
  // PostgreSQL copies a template only while nobody else is connected to it: another run copying at once waits.
  await waitFor(() => onServer(url, (c) => c.query(`create database "${name}" template "${template}"`)).then(() => true), {
    timeoutMs: 60_000,
    intervalMs: 500,
    what: `a copy of ${template}`,
  })
}
