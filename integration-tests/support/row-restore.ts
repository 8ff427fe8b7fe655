/**
 * Medusa's test runner restores a store suite's database before every test by dropping it and creating it again
 * from a template (`CREATE DATABASE … TEMPLATE`). For Medusa's schema (≈1,400 tables, indexes and sequences) that
 * costs about one second of PostgreSQL's CPU per test on the 2-core machine — more than many tests themselves.
 *
 * A row restore gives the test the same database in tens of milliseconds: when the runner takes its snapshot, the
 * rows of every table that has any are copied into a schema of their own (`pgs_test_snapshot`) and the sequences'
 * positions noted; before each test, with nobody else connected, every table is emptied, the copied rows put back
 * and the sequences reset. It holds only while the schema is the one snapshotted: a fingerprint of the public schema's
 * catalog (tables, columns, constraints, triggers, functions, types) is compared first, and when a test changed the
 * schema (a trigger it forgot to drop, say), the runner's own full restore runs instead.
 *
 * Installed by replacing the runner's two functions in its module (`restorePostgresDatabaseFromTemplate`,
 * `createPostgresDatabaseTemplate`); the runner looks them up at each call. Should a Medusa release rename them,
 * `installRowRestore` throws rather than silently falling back to the slow path.
 */
import type { Client as PgClient } from "pg"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require("pg") as typeof import("pg")

export const SNAPSHOT_SCHEMA = "pgs_test_snapshot"
const SEQUENCES_TABLE = `${SNAPSHOT_SCHEMA}."__sequences"`
const FINGERPRINT_TABLE = `${SNAPSHOT_SCHEMA}."__fingerprint"`

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`

export function connect(database: string): PgClient {
  return new Client({
    host: process.env.DB_HOST ?? "localhost",
    port: Number(process.env.DB_PORT ?? 5432),
    user: process.env.DB_USERNAME ?? "postgres",
    password: process.env.DB_PASSWORD || undefined,
    database,
  })
}

async function withClient<T>(database: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  const client = connect(database)
  // A terminated connection must not crash the test process with an unhandled 'error' event.
  client.on("error", () => undefined)
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end().catch(() => undefined)
  }
}

/** One text that changes whenever the public schema's shape does (not its rows). */
const FINGERPRINT = `
  select md5(concat_ws('|',
    (select string_agg(format('%s:%s:%s:%s', c.oid, c.relname, c.relkind, c.relrowsecurity), ',' order by c.oid) from pg_class c where c.relnamespace = 'public'::regnamespace),
    (select string_agg(format('%s:%s:%s:%s:%s:%s:%s:%s', a.attrelid, a.attnum, a.attname, a.atttypid, a.attnotnull, a.attisdropped, a.attgenerated, a.attcollation), ',' order by a.attrelid, a.attnum)
       from pg_attribute a join pg_class c on c.oid = a.attrelid where c.relnamespace = 'public'::regnamespace and a.attnum > 0),
    (select string_agg(format('%s:%s:%s', d.oid, d.adrelid, d.adnum), ',' order by d.oid) from pg_attrdef d join pg_class c on c.oid = d.adrelid where c.relnamespace = 'public'::regnamespace),
    (select string_agg(format('%s:%s:%s', k.oid, k.condeferrable, k.condeferred), ',' order by k.oid) from pg_constraint k where k.connamespace = 'public'::regnamespace),
    (select string_agg(format('%s:%s:%s', t.oid, t.tgenabled, md5(pg_get_triggerdef(t.oid))), ',' order by t.oid) from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relnamespace = 'public'::regnamespace),
    (select string_agg(format('%s:%s:%s', p.oid, md5(p.prosrc), p.proconfig), ',' order by p.oid) from pg_proc p where p.pronamespace = 'public'::regnamespace),
    (select string_agg(y.oid::text, ',' order by y.oid) from pg_type y where y.typnamespace = 'public'::regnamespace),
    (select string_agg(e.oid::text, ',' order by e.oid) from pg_enum e join pg_type y on y.oid = e.enumtypid where y.typnamespace = 'public'::regnamespace),
    (select string_agg(r.oid::text, ',' order by r.oid) from pg_rewrite r join pg_class c on c.oid = r.ev_class where c.relnamespace = 'public'::regnamespace),
    (select string_agg(o.oid::text, ',' order by o.oid) from pg_policy o join pg_class c on c.oid = o.polrelid where c.relnamespace = 'public'::regnamespace),
    (select string_agg(format('%s:%s:%s:%s', q.seqrelid, q.seqincrement, q.seqmin, q.seqmax), ',' order by q.seqrelid) from pg_sequence q join pg_class c on c.oid = q.seqrelid where c.relnamespace = 'public'::regnamespace)
  )) as fingerprint`

const fingerprintOf = async (client: PgClient) => (await client.query<{ fingerprint: string }>(FINGERPRINT)).rows[0]!.fingerprint

type Table = { name: string; columns: string[] }

/** The public schema's tables with the columns a row can be written to (not generated ones). */
async function tablesOf(client: PgClient): Promise<Table[]> {
  const { rows } = await client.query<{ name: string; columns: string[] }>(`
    select c.relname::text as name, array_agg(a.attname::text order by a.attnum) as columns
    from pg_class c join pg_attribute a on a.attrelid = c.oid
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r' and not c.relispartition and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
    group by c.relname order by c.relname`)
  return rows
}

/**
 * Runs `work` on a connection to `database` while no other may be open: the others (the store's pool, a transaction a
 * test left open) are ended and none let in until `work` is done, as the runner's own restore does.
 */
async function alone<T>(database: string, work: (client: PgClient) => Promise<T>): Promise<T> {
  return withClient("postgres", (admin) =>
    withClient(database, async (client) => {
      await admin.query(`alter database ${quote(database)} with allow_connections false`)
      try {
        await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> $2`, [database, (client as unknown as { processID: number }).processID])
        return await work(client)
      } finally {
        await admin.query(`alter database ${quote(database)} with allow_connections true`)
      }
    }),
  )
}

/**
 * Copies the rows of every public table that has any, and the sequences' positions, into the snapshot schema of
 * `database`, as of one moment (nobody else connected, one repeatable-read transaction). Run when the runner takes
 * its snapshot, before its template is made, so a full restore from the template brings the snapshot schema back too.
 * A schema with partitioned tables gets no snapshot (their rows would be copied twice): the full restore then runs.
 */
export async function takeRowSnapshot(database: string): Promise<void> {
  await alone(database, async (client) => {
    await client.query("begin isolation level repeatable read")
    await client.query(`drop schema if exists ${SNAPSHOT_SCHEMA} cascade`)
    const partitioned = await client.query(`select 1 from pg_class where relnamespace = 'public'::regnamespace and (relkind = 'p' or relispartition)`)
    if (partitioned.rowCount) return void (await client.query("commit"))
    await client.query(`create schema ${SNAPSHOT_SCHEMA}`)
    for (const table of await tablesOf(client)) {
      const has = await client.query(`select 1 from public.${quote(table.name)} limit 1`)
      if (has.rowCount === 0) continue
      await client.query(`create table ${SNAPSHOT_SCHEMA}.${quote(table.name)} as select * from public.${quote(table.name)}`)
    }
    const sequences = (await client.query<{ name: string }>(`select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'S'`)).rows
    await client.query(`create table ${SEQUENCES_TABLE} (name text primary key, last_value bigint not null, is_called boolean not null)`)
    for (const { name } of sequences) {
      await client.query(`insert into ${SEQUENCES_TABLE} select $1, last_value, is_called from public.${quote(name)}`, [name])
    }
    await client.query(`create table ${FINGERPRINT_TABLE} as ${FINGERPRINT}`)
    await client.query("commit")
  })
}

/** Tables per transaction: one transaction over all of Medusa's would hold a lock per table and index (≈1,200). */
const TABLES_PER_TRANSACTION = 40

const inChunks = <T>(items: T[], size: number): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/**
 * Puts `database` back to its row snapshot: false (nothing changed) when there is no snapshot or the schema is no
 * longer the one snapshotted, for the caller to restore another way. Nobody else is connected meanwhile (`alone`),
 * so the tables are emptied and refilled in a few transactions, their foreign keys not checked (the rows are the
 * snapshot's, which were consistent), and sequences reset. Should it stop half-way, it throws and the caller's full
 * restore replaces the database.
 */
export async function restoreRows(database: string): Promise<boolean> {
  return alone(database, async (client) => {
    const snapshot = await client.query(`select to_regclass('${FINGERPRINT_TABLE}') is not null as present`)
    if (!snapshot.rows[0].present) return false
    const expected = (await client.query<{ fingerprint: string }>(`select fingerprint from ${FINGERPRINT_TABLE}`)).rows[0]?.fingerprint
    if (expected !== (await fingerprintOf(client))) return false
    const tables = await tablesOf(client)
    const copied = new Set(
      (await client.query<{ name: string }>(`select relname as name from pg_class where relnamespace = '${SNAPSHOT_SCHEMA}'::regnamespace and relkind = 'r'`)).rows.map((r) => r.name),
    )
    // A test database: a commit need not wait for the disk.
    await client.query("set synchronous_commit = off; set session_replication_role = replica")
    const transactions = [
      ...inChunks(tables, TABLES_PER_TRANSACTION).map((chunk) => chunk.map((table) => `delete from public.${quote(table.name)}`)),
      ...inChunks(tables.filter((table) => copied.has(table.name)), TABLES_PER_TRANSACTION).map((chunk) =>
        chunk.map((table) => {
          const columns = table.columns.map(quote).join(", ")
          return `insert into public.${quote(table.name)} (${columns}) overriding system value select ${columns} from ${SNAPSHOT_SCHEMA}.${quote(table.name)}`
        }),
      ),
      [`select setval(format('public.%I', name)::regclass, last_value, is_called) from ${SEQUENCES_TABLE}`],
    ]
    for (const statements of transactions) {
      try {
        await client.query(["begin", ...statements, "commit"].join(";\n"))
      } catch (error) {
        await client.query("rollback").catch(() => undefined)
        throw error
      }
    }
    return true
  })
}

type TemplateArgs = { databaseName: string; templateName: string }
type TemplateFunctions = {
  restorePostgresDatabaseFromTemplate: (args: TemplateArgs) => Promise<void>
  createPostgresDatabaseTemplate: (args: TemplateArgs) => Promise<void>
}

/** Replaces the runner's snapshot and restore with the row snapshot and restore (once per jest module registry). */
export function installRowRestore(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const runner = require("@medusajs/test-utils/dist/medusa-test-runner-utils/postgres-template") as TemplateFunctions & { __pgsRowRestore?: true }
  if (runner.__pgsRowRestore) return
  const { restorePostgresDatabaseFromTemplate: fullRestore, createPostgresDatabaseTemplate: createTemplate } = runner
  if (typeof fullRestore !== "function" || typeof createTemplate !== "function") {
    throw new Error("@medusajs/test-utils no longer has restorePostgresDatabaseFromTemplate/createPostgresDatabaseTemplate: update integration-tests/support/row-restore.ts")
  }
  runner.createPostgresDatabaseTemplate = async (args) => {
    await takeRowSnapshot(args.databaseName).catch(async (error: Error) => {
      // Said, not thrown: without a snapshot every restore is the runner's full one, only slower.
      process.stderr.write(`[row-restore] ${args.databaseName}: no row snapshot (${error.message}); tests restore from the template\n`)
      await withClient(args.databaseName, (client) => client.query(`drop schema if exists ${SNAPSHOT_SCHEMA} cascade`)).catch(() => undefined)
    })
    await createTemplate(args)
  }
  runner.restorePostgresDatabaseFromTemplate = async (args) => {
    const restored = await restoreRows(args.databaseName).catch((error: Error) => {
      // Said, not thrown: the full restore below still gives the test its database, only slower.
      process.stderr.write(`[row-restore] ${args.databaseName}: ${error.message}; restoring from the template instead\n`)
      return false
    })
    if (!restored) await fullRestore(args)
  }
  runner.__pgsRowRestore = true
}
