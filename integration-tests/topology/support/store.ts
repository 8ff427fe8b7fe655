/**
 * The drills' store, booted once per suite as production runs it: its own PostgreSQL database and its own Redis,
 * the PGS sandbox (the gateway), migrations and the demo's catalogue, then two `medusa start` servers and one
 * worker (scripts/topology) behind round-robin balancers, the gateway's webhooks going to the balancer in front
 * of the servers' webhook receivers. Helpers talk to it as a storefront, the dashboard and the gateway do.
 */
import type { ChildProcess } from "node:child_process"
import { storeEnvFor } from "../../../sandbox"
import { dropDatabase, ensureExists, seededPublishableKey } from "../../../scripts/demo/database"
import { runCli, type Env } from "../../../scripts/demo/medusa"
import { startTopology, type MedusaProcess, type Topology } from "../../../scripts/topology/processes"
import { BROWSER_INFO, startHarness, waitFor, type SandboxHarness } from "../../support/sandbox"
import { walletOneToken } from "../../sandbox/cards-support"
import { redisUnavailable, startOwnRedis, type OwnRedis } from "./redis"
import { jobRunners, type JobRunners } from "./job-runners"
import { sessionFields } from "../../support/session-fields"

// pg ships no types here; the calls we make, typed narrowly.
type PgClient = { connect(): Promise<void>; query(sql: string, params?: unknown[]): Promise<{ rows: any[] }>; end(): Promise<void> }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Client } = require("pg") as { Client: new (options: { connectionString: string }) => PgClient }

export const ADMIN = { email: "admin@pgs.topology", password: "topology-drills" }
export const PGS = "pp_pgs_pgs"
/** The store's option medusaCallWaitSeconds: how long a management webhook waits for Medusa's own call. */
export const MEDUSA_CALL_WAIT_SECONDS = 8

export type Http = { status: number; body: any }
export type Client = { get(path: string): Promise<Http>; post(path: string, body?: unknown): Promise<Http> }

export type TopologySuite = {
  sandbox: SandboxHarness
  redis: OwnRedis
  topology: Topology
  env: Env
  /** The long-lived `medusa exec` processes that run the jobs (job-runners.ts). */
  jobs: JobRunners
  sql(text: string, params?: unknown[]): Promise<any[]>
  /** The store API through the balancer, or straight to one server. */
  store(base?: string, headers?: Record<string, string>): Client
  /** The admin API (logged in) through the balancer, or straight to one server. */
  admin(base?: string): Promise<Client>
  /** A cart with one item and a PGS payment session paying by wallet (frictionless approval at completion). */
  readyCart(opts?: { scenario?: string; customerToken?: string; saveCard?: boolean; authMethod?: "PAN_ONLY" | "CRYPTOGRAM_3DS" }): Promise<{ cartId: string; sessionId: string; reference: string; amountMinor: number; data: any }>
  /** A new PGS payment session on the cart (replacing the one it had), paying by wallet. */
  paySession(cartId: string, opts?: Parameters<TopologySuite["readyCart"]>[0]): ReturnType<TopologySuite["readyCart"]>
  /** A shopper account, logged in. */
  customer(): Promise<{ token: string; email: string; id: string }>
  /** A job run by a job runner, a `medusa exec` process of its own (`child`); `now` is the time it is scheduled for. */
  runJob(job: "reconcile" | "retry-webhooks" | "retry-webhooks,reconcile", now: Date): { child: ChildProcess; result: Promise<any> }
  server(n: 1 | 2): MedusaProcess
  /** Stops the running processes and starts this layout (1 server and 0 workers: one shared process without Redis). */
  use(layout: { servers: number; workers: number }): Promise<void>
}

let counter = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`

function client(base: string, headers: Record<string, string>): Client {
  const call = async (method: string, p: string, body?: unknown): Promise<Http> => {
    // A killed process cuts the connection: status 0, as a browser sees a network error.
    const res = await fetch(`${base}${p}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch(() => null)
    if (!res) return { status: 0, body: null }
    const text = await res.text().catch(() => "")
    let json: any
    try {
      json = JSON.parse(text)
    } catch {
      json = text
    }
    return { status: res.status, body: json }
  }
  return { get: (p) => call("GET", p), post: (p, b) => call("POST", p, b ?? {}) }
}

function databaseUrl(name: string) {
  const user = process.env.DB_USERNAME ?? "postgres"
  const password = process.env.DB_PASSWORD ? `:${encodeURIComponent(process.env.DB_PASSWORD)}` : ""
  return `postgres://${user}${password}@${process.env.DB_HOST ?? "localhost"}:${process.env.DB_PORT ?? 5432}/${name}`
}

/** Boots the topology once for `body`'s tests; skips the whole suite (saying why) where Redis cannot run. */
export function topologySuite(name: string, body: (s: TopologySuite) => void, options: { layout?: { servers: number; workers: number } | null } = {}) {
  const why = redisUnavailable()
  if (why) {
    console.warn(`[topology] skipping "${name}": ${why}`)
    describe.skip(name, () => body({} as TopologySuite))
    return
  }
  const s = {} as TopologySuite
  let db: PgClient
  const dbUrl = databaseUrl(`pgs_topology_${process.pid}`)
  let publishableKey = ""
  let region = ""
  let variantId = ""
  let adminToken = ""

  beforeAll(async () => {
    s.sandbox = await startHarness()
    s.redis = await startOwnRedis()
    await dropDatabase(dbUrl)
    await ensureExists(dbUrl)
    s.env = {
      DATABASE_URL: dbUrl,
      REDIS_URL: s.redis.url,
      NODE_OPTIONS: "",
      NODE_ENV: "development",
      MEDUSA_ADMIN: "false",
      MEDUSA_DISABLE_TELEMETRY: "true",
      LOG_LEVEL: process.env.TOPOLOGY_LOG_LEVEL ?? "error",
      ...storeEnvFor(s.sandbox.config),
      PGS_TRANSACTION_TYPE: "AUTHORIZE",
      PGS_STORE_URL: "http://localhost:8000",
      // A management call whose answer never comes is given up on in 4 s (the client's default is 45 s).
      PGS_TIMEOUT_MANAGE_MS: "4000",
      // So a capture or refund webhook waits 8 s for Medusa's own call (a live one has ended at 4 s), not the 58 s
      // a store's 45 s manage timeout needs: the drills whose server dies mid-call wait that long for it.
      PGS_MEDUSA_CALL_WAIT_SECONDS: String(MEDUSA_CALL_WAIT_SECONDS),
      // Every drill's shoppers come from 127.0.0.1: counted per address, the whole suite would be one card tester.
      // The card-testing guard's other counts (per cart, email, session) stay as a store has them.
      PGS_CARD_TESTING_ATTEMPTS_PER_ADDRESS: "1000000",
      PGS_CARD_TESTING_DECLINES_PER_ADDRESS: "1000000",
      PGS_CARD_TESTING_SESSIONS_PER_ADDRESS: "1000000",
    }
    await runCli(["db:migrate"], s.env)
    // The first job runner's boot seeds the catalogue and creates the admin (one Medusa boot, not two CLI commands),
    // before the servers boot: each boot creates Medusa's default store on a fresh database, and two at once can
    // both try (seen once: "Price preference … already exists").
    s.jobs = jobRunners(s.env, process.env.TOPOLOGY_LOG ? (l) => console.log(l) : undefined)
    await s.jobs.run("/seed", ADMIN).result
    publishableKey = (await seededPublishableKey(dbUrl))!
    db = new Client({ connectionString: dbUrl })
    await db.connect()
    // A second runner, for two runs at once, boots with the servers; the drills start with every boot done.
    if (options.layout !== null) await Promise.all([s.jobs.warm(2), s.use(options.layout ?? { servers: 2, workers: 1 })])
  }, 600_000)

  s.use = async (layout) => {
    await s.topology?.stop()
    const shared = layout.servers === 1 && layout.workers === 0
    const env = { ...s.env, PGS_BACKEND_URL: "http://localhost:9000", ...(shared ? { REDIS_URL: "" } : {}) }
    s.topology = await startTopology({ ...layout, env, log: process.env.TOPOLOGY_LOG ? (l) => console.log(l) : undefined })
    await s.sandbox.control("DELETE", "/_sandbox/webhooks")
    await s.sandbox.control("POST", "/_sandbox/webhooks", { url: s.topology.webhookUrl })
    const store = s.store()
    const regions = (await store.get("/store/regions")).body.regions as any[]
    region = regions.find((r) => r.currency_code === "eur").id
    const products = (await store.get(`/store/products?handle=sandbox-gift-card&region_id=${region}`)).body.products as any[]
    variantId = products[0].variants[0].id
    const login = await client(s.topology.url, {}).post("/auth/user/emailpass", ADMIN)
    adminToken = login.body.token
    if (!adminToken) throw new Error(`admin login failed: ${login.status} ${JSON.stringify(login.body)}`)
  }

  // A drill that failed before starting its killed process again leaves it to this, not to the next drill.
  afterEach(async () => {
    for (const p of s.topology?.processes ?? []) if (!s.topology.alive(p)) await s.topology.restart(p)
  }, 300_000)

  afterAll(async () => {
    await s.jobs?.stop()
    await s.topology?.stop()
    await db?.end()
    await s.redis?.stop()
    await s.sandbox?.close()
    await dropDatabase(dbUrl).catch(() => {})
  }, 120_000)

  s.sql = async (text, params) => (await db.query(text, params)).rows
  s.store = (base = s.topology.url, headers = {}) => client(base, { "x-publishable-api-key": publishableKey, ...headers })
  s.admin = async (base = s.topology.url) => client(base, { authorization: `Bearer ${adminToken}` })
  s.server = (n) => s.topology.servers[n - 1]!

  s.customer = async () => {
    const email = `${unique("customer")}@example.com`
    const password = "correct horse battery staple"
    const anonymous = s.store()
    const reg = await anonymous.post("/auth/customer/emailpass/register", { email, password })
    const created = await s.store(undefined, { authorization: `Bearer ${reg.body.token}` }).post("/store/customers", { email, first_name: "Grace", last_name: "Hopper" })
    const login = await anonymous.post("/auth/customer/emailpass", { email, password })
    return { token: login.body.token, email, id: created.body.customer.id }
  }

  s.readyCart = async (opts = {}) => {
    const store = s.store(undefined, opts.customerToken ? { authorization: `Bearer ${opts.customerToken}` } : {})
    const cart = await store.post("/store/carts", {
      region_id: region,
      email: `${unique("shopper")}@example.com`,
      items: [{ variant_id: variantId, quantity: 1 }],
      billing_address: { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical St", city: "Berlin", country_code: "de", postal_code: "10115" },
    })
    if (cart.status !== 200) throw new Error(`cart: ${cart.status} ${JSON.stringify(cart.body)}`)
    return s.paySession(cart.body.cart.id, opts)
  }

  s.paySession = async (cartId, opts = {}) => {
    const scenario = opts.scenario ?? "frictionless_approved"
    const store = s.store(undefined, opts.customerToken ? { authorization: `Bearer ${opts.customerToken}` } : {})
    const collection = await store.post("/store/payment-collections", { cart_id: cartId })
    const pan = s.sandbox.testCard(scenario)
    const authMethod = opts.authMethod ?? "CRYPTOGRAM_3DS"
    const payment_method = {
      type: "wallet-one",
      token: walletOneToken({ pan, authMethod, ...(authMethod === "CRYPTOGRAM_3DS" ? { cryptogram: "AgAAAAAAAIR8CQrXcIhbQAAAAAA=" } : {}) }),
    }
    const sessions = await store.post(`/store/payment-collections/${collection.body.payment_collection.id}/payment-sessions`, {
      provider_id: PGS,
      data: { payment_method, browser_info: BROWSER_INFO, ...(opts.saveCard ? { save_card: true } : {}) },
    })
    if (sessions.status !== 200) throw new Error(`payment session: ${sessions.status} ${JSON.stringify(sessions.body)}`)
    const session = (sessions.body.payment_collection.payment_sessions as any[]).find((p) => p.provider_id === PGS)
    return { cartId, sessionId: session.id, reference: sessionFields(session.data).reference, amountMinor: Math.round(Number(session.amount) * 100), data: session.data }
  }

  s.runJob = (job, now) => s.jobs.run("/run", { job, now: now.toISOString() })

  describe(name, () => body(s))
}

export { waitFor, unique }
