/**
 * A PostgreSQL database of a test's own holding only the plugin's tables, built by the plugin's own migrations
 * (src/modules/pgs/migrations, in order): for tests about the plugin's SQL that need no Medusa boot.
 */
import fs from "node:fs"
import path from "node:path"
import { knex as createKnex, type Knex } from "@medusajs/framework/mikro-orm/knex"

const connection = (database: string) => ({
  host: process.env.DB_HOST ?? "localhost",
  port: Number(process.env.DB_PORT ?? 5432),
  user: process.env.DB_USERNAME ?? "postgres",
  password: process.env.DB_PASSWORD ?? "",
  database,
})

export async function pluginDatabase(prefix: string): Promise<{ knex: Knex; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`
  const admin = createKnex({ client: "pg", connection: connection("postgres") })
  await admin.raw(`create database "${name}"`)
  const knex = createKnex({ client: "pg", connection: connection(name), pool: { min: 0, max: 4 } })
  const dir = path.join(__dirname, "../../src/modules/pgs/migrations")
  for (const file of fs.readdirSync(dir).filter((f) => /^Migration\d+\.ts$/.test(f)).sort()) {
    // The migration classes only call this.addSql in up(): their statements, run in order.
    const mod = await import(path.join(dir, file))
    const Class = Object.values(mod)[0] as { prototype: object }
    const statements: string[] = []
    const migration = Object.assign(Object.create(Class.prototype), { addSql: (sql: string) => statements.push(sql) })
    await migration.up()
    for (const sql of statements) await knex.raw(sql)
  }
  return {
    knex,
    drop: async () => {
      await knex.destroy()
      await admin.raw(`drop database if exists "${name}" with (force)`)
      await admin.destroy()
    },
  }
}
