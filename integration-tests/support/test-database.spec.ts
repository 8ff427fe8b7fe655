import fs from "node:fs"
import { Client } from "pg"
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startTestDatabase } = require("../../scripts/test-database")

describe("the test database fallback", () => {
  it("starts a throwaway embedded PostgreSQL that answers queries, and removes it afterwards", async () => {
    const previous = process.env.PGS_TEST_DB
    process.env.PGS_TEST_DB = "embedded"
    const db = await startTestDatabase()
    try {
      expect(db.env.DB_HOST).toBe("localhost")
      const client = new Client({
        host: db.env.DB_HOST,
        port: Number(db.env.DB_PORT),
        user: db.env.DB_USERNAME,
        password: db.env.DB_PASSWORD,
        database: "postgres",
      })
      await client.connect()
      const { rows } = await client.query("select 41 + 1 as answer")
      expect(rows[0].answer).toBe(42)
      await client.end()
    } finally {
      await db.stop()
      process.env.PGS_TEST_DB = previous
    }
    expect(fs.existsSync(db.dataDirectory)).toBe(false)
  })
})
