/**
 * Do the pgs module's models, its migrations and the generator's snapshot agree? Read as Medusa's own generator
 * (`npm run db:generate`, @medusajs/medusa's commands/plugin/db/generate.js) reads them, without a Medusa boot.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { MikroORM } from "@medusajs/framework/mikro-orm/postgresql"
import { MetadataStorage } from "@medusajs/framework/mikro-orm/core"
import { defineMikroOrmCliConfig, DmlEntity, isFileSkipped } from "@medusajs/framework/utils"

export const MODULE_DIR = path.resolve(__dirname, "../../src/modules/pgs")
export const MIGRATIONS_DIR = path.join(MODULE_DIR, "migrations")

/**
 * Schema the migrations make on purpose and the models do not declare, each with its reason. The database diff
 * proposes undoing them; `npm run db:generate` does not (it compares with the snapshot), so they are no trouble there.
 */
export const DELIBERATE = {
  /** Indexes a DML model cannot declare (expressions, other predicates): FRAMEWORK-NOTES 55. */
  handWrittenIndexMigrations: ["Migration20261125041000.ts"],
  /** Plain tables that only knex reads (the card-testing guard's counters and records). */
  tablesWithoutModels: /^pgs_card_testing_\w+$/,
}

/** The models as the generator finds them: every export of models/*.ts but index.ts that is a DML or MikroORM entity. */
export function generatorEntities(modelsDir = path.join(MODULE_DIR, "models")): unknown[] {
  return fs
    .readdirSync(modelsDir)
    .filter((file) => file.endsWith(".ts") && file !== "index.ts" && !file.endsWith(".d.ts"))
    .flatMap((file) => {
      const exported = require(path.join(modelsDir, file))
      if (isFileSkipped(exported)) return []
      // The generator's own test, Object.hasOwn included: an export of null or undefined there crashes it.
      return Object.values(exported).filter((e) => DmlEntity.isDmlEntity(e) || Object.hasOwn(e as object, MetadataStorage.PATH_SYMBOL))
    })
}

/** A MikroORM for the pgs module as the generator configures it, on `database`, with its migrations in `migrationsDir`. */
export function moduleOrm(entities: unknown[], database: string, migrationsDir: string) {
  const config = defineMikroOrmCliConfig("pgs", {
    entities: entities as never[],
    dbName: database,
    host: process.env.DB_HOST ?? "localhost",
    port: Number(process.env.DB_PORT ?? 5432),
    user: process.env.DB_USERNAME ?? "postgres",
    password: process.env.DB_PASSWORD ?? "",
    migrations: { path: migrationsDir },
  })
  return MikroORM.init(config)
}

/**
 * What `npm run db:generate` would put in a new migration (its `up` statements): the generator's own
 * createMigration, run on a copy of the snapshot so nothing is written next to the real migrations.
 */
export async function proposedMigration(entities: unknown[], database: string): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pgs-snapshot-"))
  const snapshot = fs.readdirSync(MIGRATIONS_DIR).filter((f) => f.startsWith(".snapshot-"))
  for (const file of snapshot) fs.copyFileSync(path.join(MIGRATIONS_DIR, file), path.join(dir, file))
  const orm = await moduleOrm(entities, database, dir)
  try {
    const result = await orm.getMigrator().createMigration()
    return result.diff.up.filter(Boolean)
  } finally {
    await orm.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The statements MikroORM's schema generator would run to turn `database` (built by the migrations) into the models. */
export async function modelDiff(entities: unknown[], database: string): Promise<string[]> {
  const orm = await moduleOrm(entities, database, MIGRATIONS_DIR)
  try {
    const sql = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false })
    return sql.split(/;\n/).map((s) => s.trim()).filter(Boolean).map((s) => (s.endsWith(";") ? s : `${s};`))
  } finally {
    await orm.close()
  }
}

/** Index names the hand-written-index migrations create. */
export function handWrittenIndexes(): Set<string> {
  const names = DELIBERATE.handWrittenIndexMigrations.flatMap((file) =>
    [...fs.readFileSync(path.join(MIGRATIONS_DIR, file), "utf8").matchAll(/CREATE INDEX IF NOT EXISTS "(\w+)"/gi)].map((m) => m[1]),
  )
  return new Set(names)
}

const CHECK = /^alter table "(\w+)" (drop|add) constraint (?:if exists )?"?(\w+)"?(?: check\((.*)\))?;$/s

/**
 * The model diff's statements that are real disagreements. Left out: the deliberate schema above, and a check
 * constraint dropped and added again with the same meaning (MikroORM compares a check's text and an enum's order;
 * PostgreSQL keeps `between` rewritten, and the migrations list enum values in the order they were added).
 */
export async function undocumentedDifferences(statements: string[], knex: Knex): Promise<string[]> {
  const indexes = handWrittenIndexes()
  const sameChecks = new Set<string>()
  for (const statement of statements) {
    const m = CHECK.exec(statement)
    if (m?.[2] === "add" && (await sameCheck(knex, m[1], m[3], m[4]))) sameChecks.add(`${m[1]}.${m[3]}`)
  }
  return statements.filter((statement) => {
    const index = /^drop index "(\w+)";$/.exec(statement)
    if (index && indexes.has(index[1])) return false
    const table = /^drop table if exists "(\w+)" cascade;$/.exec(statement)
    if (table && DELIBERATE.tablesWithoutModels.test(table[1])) return false
    const check = CHECK.exec(statement)
    return !(check && sameChecks.has(`${check[1]}.${check[3]}`))
  })
}

/** Does `table`'s constraint `name` in the database mean what `expression` means? PostgreSQL normalizes both. */
async function sameCheck(knex: Knex, table: string, name: string, expression: string): Promise<boolean> {
  const definition = async (db: Knex, constraint: string) =>
    (await db.raw(`select pg_get_constraintdef(oid) as def from pg_constraint where conrelid = ?::regclass and conname = ?`, [table, constraint])).rows[0]?.def as string | undefined
  const current = await definition(knex, name)
  if (!current) return false
  // Added under another name in a transaction that is rolled back: PostgreSQL's own reading of the model's check.
  const trx = await knex.transaction()
  try {
    await trx.raw(`alter table "${table}" add constraint "pgs_schema_probe" check (${expression}) not valid`)
    const proposed = (await definition(trx, "pgs_schema_probe"))?.replace(/ NOT VALID$/, "")
    return proposed !== undefined && sortedArrays(proposed) === sortedArrays(current)
  } catch {
    return false
  } finally {
    await trx.rollback()
  }
}

/** A definition with each ARRAY[...] literal's items sorted: an enum's values in any order. */
function sortedArrays(definition: string): string {
  return definition.replace(/ARRAY\[([^\]]*)\]/g, (_, items: string) => `ARRAY[${items.split(", ").sort().join(", ")}]`)
}

/** Migrations whose down() drops a table or a column, or deletes rows, without a `Loses data:` comment saying so. */
export function silentDataLoss(sources: Record<string, string>): string[] {
  return Object.entries(sources).flatMap(([file, source]) => {
    const down = /async down\(\)[^{]*\{([\s\S]*)$/.exec(source)?.[1] ?? ""
    const destroys = /drop table|drop column|delete from/i.test(down)
    return destroys && !/(\/\/|\*) Loses data:/.test(down) ? [file] : []
  })
}

export function migrationSources(): Record<string, string> {
  const files = fs.readdirSync(MIGRATIONS_DIR).filter((f) => /^Migration\d+\.ts$/.test(f))
  return Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(MIGRATIONS_DIR, f), "utf8")]))
}
