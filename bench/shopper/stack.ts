/**
 * The store the shopper bench measures, started from the demo's own parts (scripts/demo): a database of its own on
 * the test PostgreSQL (dropped at the end), the sandbox, migrations and the demo's seed, one Medusa process, the
 * demo storefront, and the bench's pages (floor and React) on another origin. Every port is picked free.
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { storeEnvFor } from "../../sandbox"
import { dropDatabase, seededPublishableKey, startDatabase } from "../../scripts/demo/database"
import { freePort } from "../../scripts/demo/flags"
import { runCli, startServer, stopProcess, waitForHealth, type Env } from "../../scripts/demo/medusa"
import { startDemoSandbox } from "../../scripts/demo/sandbox"
import { startStorefront } from "../../scripts/demo/storefront"
import { startBenchPages } from "./pages"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { startTestDatabase } = require("../../scripts/test-database") as {
  startTestDatabase(): Promise<{ description: string; env: Record<string, string>; stop(): Promise<void> }>
}

export const BENCH_ADMIN = { email: "bench@pgs.demo", password: "bench-shopper-admin" }

export type Stack = {
  storeUrl: string
  storefrontUrl: string
  pagesUrl: string
  gatewayUrl: string
  publishableKey: string
  stop(): Promise<void>
}

export async function startStack(log: (line: string) => void): Promise<Stack> {
  const stops: Array<() => Promise<unknown>> = []
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch((e: Error) => log(`stopping: ${e.message}`))
  }
  try {
    const server = await startTestDatabase()
    stops.push(() => server.stop())
    const e = { ...server.env, ...pick(process.env, ["DB_HOST", "DB_PORT", "DB_USERNAME", "DB_PASSWORD"]) }
    // The demo's database helper drops and recreates only a database whose name says "demo".
    process.env.DATABASE_URL = `postgres://${e.DB_USERNAME ?? "postgres"}:${e.DB_PASSWORD ?? ""}@${e.DB_HOST ?? "localhost"}:${e.DB_PORT ?? 5432}/pgs_demo_bench_shopper_${process.pid}`
    const db = await startDatabase(os.tmpdir(), { reset: true, port: 0 })
    stops.push(() => dropDatabase(db.url))

    const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "pgs-bench-shopper-"))
    stops.push(async () => fs.rmSync(stateDir, { recursive: true, force: true }))
    const sandbox = await startDemoSandbox(stateDir, { port: await freePort(0), reset: true, payoutSettleAfterMs: 5000 })
    stops.push(() => sandbox.stop())

    const storeUrl = `http://localhost:${await freePort(0)}`
    const storefrontPort = await freePort(0)
    const pagesPort = await freePort(0)
    const storefrontUrl = `http://localhost:${storefrontPort}`
    const pagesUrl = `http://localhost:${pagesPort}`
    const env: Env = {
      DATABASE_URL: db.url,
      NODE_ENV: "development",
      MEDUSA_ADMIN: "false", // the dashboard is not measured; its build would only slow the start
      MEDUSA_DISABLE_TELEMETRY: "true",
      STORE_CORS: [storefrontUrl, pagesUrl].join(","),
      ADMIN_CORS: storeUrl,
      AUTH_CORS: [storeUrl, storefrontUrl, pagesUrl].join(","),
      MEDUSA_BACKEND_URL: storeUrl,
      ...storeEnvFor(sandbox.config),
      PGS_TRANSACTION_TYPE: "AUTHORIZE",
      PGS_STORE_URL: storefrontUrl,
      PGS_BACKEND_URL: storeUrl,
      MEDUSA_WORKER_MODE: "shared",
      LOG_LEVEL: "error",
      // Every journey comes from this machine's one address: the card-testing guard stays on, counting as it does,
      // with room for a bench's worth of payments (by default 60 attempts and 10 sessions per address).
      PGS_CARD_TESTING_ATTEMPTS_PER_ADDRESS: "10000",
      PGS_CARD_TESTING_SESSIONS_PER_ADDRESS: "10000",
    }
    log("migrations and the demo's seed…")
    await runCli(["db:migrate"], env)
    await runCli(["exec", "./scripts/demo/seed.ts"], env)
    await runCli(["user", "-e", BENCH_ADMIN.email, "-p", BENCH_ADMIN.password], env)
    const publishableKey = (await seededPublishableKey(db.url))!

    log("Medusa…")
    const child = startServer({ ...env, PORT: new URL(storeUrl).port })
    stops.push(() => stopProcess(child))
    await waitForHealth(storeUrl, child)

    const storefront = await startStorefront({ port: storefrontPort, medusaUrl: storeUrl, publishableKey })
    stops.push(() => storefront.close())
    const pages = await startBenchPages({ port: pagesPort, storeUrl, publishableKey, orderUrl: `${storefrontUrl}/order/` })
    stops.push(() => pages.close())
    return { storeUrl, storefrontUrl, pagesUrl, gatewayUrl: sandbox.url, publishableKey, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

const pick = (env: NodeJS.ProcessEnv, keys: string[]) => Object.fromEntries(keys.filter((k) => env[k] !== undefined).map((k) => [k, env[k]!]))
