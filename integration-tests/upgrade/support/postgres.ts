/** The upgrade suites' PostgreSQL: a database's URL on the test server, and pg's client (pg ships no types here). */

export type PgClient = { connect(): Promise<void>; query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>; end(): Promise<void> }
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const { Client: Pg } = require("pg") as { Client: new (options: { connectionString: string }) => PgClient }

export function databaseUrl(name: string) {
  const user = process.env.DB_USERNAME ?? "postgres"
  const password = process.env.DB_PASSWORD ? `:${encodeURIComponent(process.env.DB_PASSWORD)}` : ""
  return `postgres://${user}${password}@${process.env.DB_HOST ?? "localhost"}:${process.env.DB_PORT ?? 5432}/${name}`
}
