/**
 * The migrated template database of one `npm test` run (integration-tests/http/support/migrated-database.ts builds
 * it on first use; store suites start from copies). Named by the run, dropped by scripts/test.js when jest ends.
 */
const { Client } = require("pg")

/** The template's name for this run, or null when no run id is set (jest started without scripts/test.js). */
function migratedTemplateName(env) {
  return env.PGS_TEST_RUN_ID ? `pgs-migrated-${env.PGS_TEST_RUN_ID}` : null
}

/** Drops this run's template (and a half-built one), if any suite made it. */
async function dropMigratedTemplate(env) {
  const name = migratedTemplateName(env)
  if (!name) return
  const client = new Client({
    host: env.DB_HOST ?? "localhost",
    port: Number(env.DB_PORT ?? 5432),
    user: env.DB_USERNAME ?? "postgres",
    password: env.DB_PASSWORD || undefined,
    database: "postgres",
  })
  await client.connect()
  try {
    for (const db of [name, `${name}-building`]) await client.query(`drop database if exists "${db}" with (force)`)
  } finally {
    await client.end()
  }
}

module.exports = { migratedTemplateName, dropMigratedTemplate }
