/**
 * The HTTP suites' harness: a sandbox (started first, because medusa-config reads its settings from PGS_* at
 * boot), the Medusa development store booted by medusaIntegrationTestRunner from the repository root, and a
 * seeded catalogue — the way a storefront and the dashboard meet the plugin.
 */
import path from "node:path"
import { ulid } from "ulid"
import { medusaIntegrationTestRunner } from "@medusajs/test-utils"
import type { MedusaContainer } from "@medusajs/framework/types"
import { startHarness, type SandboxHarness } from "../../support/sandbox"
import { storeEnvFor } from "../../../sandbox"
import { seedStore, type StoreSeed } from "./seed"
import { createFromMigratedTemplate } from "./migrated-database"
import { adminToken } from "./admin"
import { installRowRestore } from "../../support/row-restore"

jest.setTimeout(180_000)

export const PGS_PROVIDER_ID = "pp_pgs_pgs"
export const SYSTEM_PROVIDER_ID = "pp_system_default"
const ROOT = path.join(__dirname, "../../..")

export type StoreSuite = {
  sandbox: SandboxHarness
  api: any
  container(): MedusaContainer
  seed: StoreSeed
  medusaUrl: string
  webhookUrl: string
  storeHeaders: Record<string, string>
  adminHeaders(): Promise<Record<string, string>>
  createCart(input?: { currency_code?: string; email?: string; customerToken?: string; quantity?: number; shipping_address?: Record<string, string> }): Promise<any>
  initiatePaymentSession(cartId: string, providerId: string, data?: Record<string, unknown>, customerToken?: string): Promise<any>
  completeCart(cartId: string, customerToken?: string): Promise<{ status: number; data: any }>
  registerCustomer(email?: string): Promise<{ token: string; customer: any; email: string }>
}

let counter = 0
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${(counter++).toString(36)}`

function pointAtSandbox(sandbox: SandboxHarness) {
  Object.assign(process.env, {
    ...storeEnvFor(sandbox.config),
    PGS_STORE_URL: "http://localhost:8000",
    // A management call whose answer never comes is given up on in 2 s (the client's default is 45 s).
    PGS_TIMEOUT_MANAGE_MS: "2000",
  })
}

/** One behaviour's tests: a describe of their own, in a store booted for them or shared with others (`pgsStoreSuites`). */
export type StoreBody = { name: string; body: (s: StoreSuite) => void }
export const storeBody = (name: string, body: (s: StoreSuite) => void): StoreBody => ({ name, body })

type StoreOptions = {
  sandbox?: Parameters<typeof startHarness>[0]
  /** Starts the sandbox another way (a benchmark runs it in its own process, as a real gateway is). */
  startSandbox?: () => Promise<SandboxHarness>
  env?: Record<string, string>
}

/**
 * One Medusa boot per call (≈15 s): put many `it`s inside. `body` receives the suite handle; its fields are
 * filled in before the first test runs.
 */
export function pgsStoreSuite(name: string, body: (s: StoreSuite) => void, options: StoreOptions = {}) {
  return pgsStoreSuites([storeBody(name, body)], options)
}

/**
 * One Medusa boot for several behaviours that need the same store (same options): each keeps its describe, so a
 * failure names it, and the runner still restores the database before every test. Only the database is restored:
 * a body leaves the sandbox (faults, held webhooks, terminals) as it found it, and writes nothing in a `beforeAll`
 * (that would run after the snapshot, taken at the first body's first test). The restore puts the snapshot's rows
 * back (integration-tests/support/row-restore.ts: ~0.1 s instead of the runner's ~1 s re-creation of the database).
 */
export function pgsStoreSuites(bodies: StoreBody[], options: StoreOptions = {}) {
  installRowRestore()
  const s = {} as StoreSuite
  const dbName = `pgs-store-${ulid().toLowerCase()}`
  // Registered before the runner's own beforeAll, so the sandbox is up and PGS_* are set when medusa-config loads.
  beforeAll(async () => {
    s.sandbox = await (options.startSandbox ? options.startSandbox() : startHarness(options.sandbox))
    pointAtSandbox(s.sandbox)
    // Options of this suite's store only: removed again after the suite.
    Object.assign(process.env, options.env ?? {})
    // Before the runner's own beforeAll: it finds this database migrated already (its create skips an existing one).
    // After the sandbox: the run's first suite builds the template with `medusa db:migrate`, whose medusa-config reads PGS_*.
    await createFromMigratedTemplate(dbName)
  })
  afterAll(() => {
    for (const key of Object.keys(options.env ?? {})) delete process.env[key]
  })
  afterAll(async () => {
    await s.sandbox?.close()
  })

  medusaIntegrationTestRunner({
    cwd: ROOT,
    dbName,
    testSuite: ({ api, getContainer }) => {
      beforeAll(async () => {
        s.api = api
        s.container = getContainer
        s.medusaUrl = String(api.defaults.baseURL).replace(/\/$/, "")
        s.webhookUrl = `${s.medusaUrl}/hooks/pgs/webhooks`
        process.env.PGS_BACKEND_URL = s.medusaUrl
        await s.sandbox.control("POST", "/_sandbox/webhooks", { url: s.webhookUrl })
        // Seeded once, before the runner's snapshot (taken at the first test): every test starts from it restored.
        s.seed = await seedStore(getContainer())
        s.storeHeaders = { "x-publishable-api-key": s.seed.publishableKey }
      })
      for (const { name, body } of bodies) describe(name, () => body(s))
    },
  })

  s.adminHeaders = async () => ({ authorization: `Bearer ${await adminToken(s.container())}` })

  s.createCart = async (input = {}) => {
    const currency = input.currency_code ?? "eur"
    const region = s.seed.regions[currency]
    if (!region) throw new Error(`no seeded region for ${currency}`)
    const headers = { ...s.storeHeaders, ...(input.customerToken ? { authorization: `Bearer ${input.customerToken}` } : {}) }
    const res = await s.api.post(
      "/store/carts",
      {
        region_id: region,
        email: input.email ?? `${unique("shopper")}@example.com`,
        items: [{ variant_id: s.seed.variantId, quantity: input.quantity ?? 1 }],
        billing_address: { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical St", city: "Berlin", country_code: "de", postal_code: "10115" },
        ...(input.shipping_address ? { shipping_address: input.shipping_address } : {}),
      },
      { headers },
    )
    return res.data.cart
  }

  s.initiatePaymentSession = async (cartId, providerId, data, customerToken) => {
    const headers = { ...s.storeHeaders, ...(customerToken ? { authorization: `Bearer ${customerToken}` } : {}) }
    const collection = await s.api.post("/store/payment-collections", { cart_id: cartId }, { headers })
    const res = await s.api.post(
      `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`,
      { provider_id: providerId, ...(data ? { data } : {}) },
      { headers },
    )
    const sessions = res.data.payment_collection.payment_sessions as any[]
    return sessions.find((ps) => ps.provider_id === providerId)
  }

  s.completeCart = async (cartId, customerToken) => {
    const headers = { ...s.storeHeaders, ...(customerToken ? { authorization: `Bearer ${customerToken}` } : {}) }
    const res = await s.api.post(`/store/carts/${cartId}/complete`, {}, { headers, validateStatus: () => true })
    return { status: res.status, data: res.data }
  }

  s.registerCustomer = async (email = `${unique("customer")}@example.com`) => {
    const password = "correct horse battery staple"
    const reg = await s.api.post("/auth/customer/emailpass/register", { email, password })
    const created = await s.api.post(
      "/store/customers",
      { email, first_name: "Grace", last_name: "Hopper" },
      { headers: { ...s.storeHeaders, authorization: `Bearer ${reg.data.token}` } },
    )
    const login = await s.api.post("/auth/customer/emailpass", { email, password })
    return { token: login.data.token, customer: created.data.customer, email }
  }

  return s
}
