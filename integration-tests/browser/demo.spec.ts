/**
 * `npm run demo`, as a store developer meets it: boots headless (its own database on the test PostgreSQL, free
 * ports) with Medusa's log and nothing alarming in it, counts its steps right, lets another storefront origin in,
 * a shopper buys one thing by card and one by a redirect method through the demo storefront in Chromium, a payout
 * settles by itself, and Ctrl-C stops everything.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import path from "node:path"
import { chromium, type Browser, type Page } from "playwright-core"
import { dropDatabase } from "../../scripts/demo/database"
import { parseFlags } from "../../scripts/demo/flags"
import { demoRegions } from "../../scripts/demo/seed"
import { waitFor } from "../support/sandbox"
import { CHROMIUM, demoStorefrontPayByCard, demoStorefrontToPayment, describeBrowser, hasChromium, screenshot } from "./support"
import { signIn } from "./admin-support"

jest.setTimeout(600_000)

const ROOT = path.join(__dirname, "../..")

type Demo = { child: ChildProcess; output: () => string; storefront: string; admin: string; store: string; sandbox: string; webhooks: string; database: string }

/**
 * Starts the demo and waits for its "ready" block; the URLs come from what it prints. From empty (`--reset`, a database
 * of its own), or again on the store an earlier demo left (`again`), as a developer's second `npm run demo` does.
 */
function startDemo(name: string, extraArgs: string[] = [], extraEnv: Record<string, string> = {}, again?: string): Promise<Demo> {
  const db = again ?? `postgres://${process.env.DB_USERNAME || "postgres"}:${process.env.DB_PASSWORD || ""}@${process.env.DB_HOST || "localhost"}:${process.env.DB_PORT || 5432}/pgs_demo_${name}_${process.pid}`
  const args = ["scripts/demo/index.ts", ...(again ? [] : ["--reset"]), "--port", "0", "--storefront-port", "0", "--sandbox-port", "0", ...extraArgs]
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: db, NODE_OPTIONS: "", ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: a Ctrl-C reaches the demo and everything it started, as in a terminal.
    detached: true,
  })
  let output = ""
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString()
      const ready = /\[demo\] ready[\s\S]*Ctrl-C/.exec(output)?.[0]
      if (!ready) return
      // Each URL from its own line of the ready block: "  storefront  http://…".
      const url = (name: string) => {
        const found = new RegExp(`^\\s+${name}\\s+(\\S+)`, "m").exec(ready)?.[1]
        if (!found) throw new Error(`the demo's ready block has no ${name} line:\n${ready}`)
        return found
      }
      try {
        resolve({ child, output: () => output, storefront: url("storefront"), admin: url("admin"), store: url("store API"), sandbox: url("sandbox"), webhooks: url("webhooks"), database: db })
      } catch (error) {
        reject(error)
      }
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`the demo exited with ${code} before it was ready:\n${output.slice(-3000)}`)))
  })
}

/** Ctrl-C for the demo's whole process group, then a hard stop if it does not exit; `keep` leaves its database. */
async function stopDemo(demo: Demo | undefined, keep = false) {
  if (!demo) return
  if (demo.child.exitCode === null && demo.child.signalCode === null) {
    const exited = new Promise((resolve) => demo.child.once("exit", resolve))
    process.kill(-demo.child.pid!, "SIGINT")
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000))])
    if (demo.child.exitCode === null) process.kill(-demo.child.pid!, "SIGKILL")
  }
  if (!keep) await dropDatabase(demo.database) // each run's demo database is removed again
}

/**
 * The store the browser demo left once Ctrl-C stopped it cleanly (migrated, seeded, its orders): the split demo starts
 * again on it instead of migrating and seeding a second empty store (two Medusa CLI runs and every migration fewer).
 */
let leftStore: string | undefined
afterAll(async () => {
  if (leftStore) await dropDatabase(leftStore) // the split demo did not take it over (no Redis, or run alone)
})

describe("npm run demo's flags", () => {
  it("takes --cors ORIGIN, repeatable, as the browser's origin", () => {
    expect(parseFlags(["--cors", "http://localhost:3000", "--cors", "https://shop.example/"]).cors).toEqual(["http://localhost:3000", "https://shop.example"])
    expect(parseFlags([]).cors).toEqual([])
  })

  it.each(["localhost:3000", "ftp://shop.example", "http://localhost:3000/checkout", "*", undefined])("refuses --cors %s, naming the flag", (value) => {
    expect(() => parseFlags(value === undefined ? ["--cors"] : ["--cors", value])).toThrow(/^--cors needs an http\(s\) origin such as http:\/\/localhost:3000, got /)
  })
})

describe("the demo's seed", () => {
  it("offers no pp_system_default in any region (it authorizes any amount without a gateway: a free order shown as paid)", () => {
    const regions = demoRegions()
    expect(regions.map((r) => r.currency_code)).toEqual(["eur", "pln", "inr", "usd"])
    for (const region of regions) {
      expect(region.payment_providers).not.toContain("pp_system_default")
      expect(region.payment_providers.every((id) => /^pp_pgs[\w-]*_pgs$/.test(id))).toBe(true)
    }
  })
})

describeBrowser("npm run demo", () => {
  let demo: Demo
  let browser: Browser

  // A developer's own storefront: one origin by the flag, one already in their STORE_CORS / AUTH_CORS.
  const FLAG_ORIGIN = "http://localhost:3000"
  const ENV_ORIGIN = "http://localhost:3001"

  beforeAll(async () => {
    // Medusa's log as a developer sees it (npm test sets LOG_LEVEL=error for the suites' own stores).
    demo = await startDemo("browser", ["--cors", FLAG_ORIGIN], { STORE_CORS: ENV_ORIGIN, AUTH_CORS: ENV_ORIGIN, LOG_LEVEL: "info" })
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    })
  })
  afterAll(async () => {
    await browser?.close()
    const stoppedCleanly = demo?.child.exitCode === 0
    await stopDemo(demo, stoppedCleanly)
    if (stoppedCleanly) leftStore = demo.database
  })

  const toPayment = (page: Page, region: string) => demoStorefrontToPayment(page, demo.storefront, region)

  it("prints the storefront, admin (with its login) and sandbox URLs and the test cards", () => {
    expect(demo.output()).toMatch(/admin\s+http:\/\/localhost:\d+\/app\s+\(admin@pgs\.demo \/ pgs-demo-admin\)/)
    expect(demo.output()).toContain("4000000000001000  frictionless_approved")
    expect(demo.output()).toMatch(/webhooks\s+http:\/\/127\.0\.0\.1:\d+\/hooks\/pgs\/webhooks\s+\(the plugin's dedicated receiver/)
  })

  it("shows Medusa's log without the harmless ts-node stack trace", () => {
    expect(demo.output()).toContain("  medusa │ ")
    expect(demo.output()).not.toMatch(/ts-node|Require stack/)
  })

  it("counts its steps right: 1/N to N/N, each once", () => {
    const steps = [...demo.output().matchAll(/^\[demo\] (\d+)\/(\d+) /gm)].map((m) => [Number(m[1]), Number(m[2])])
    expect(steps.map(([n]) => n)).toEqual(steps.map((_, i) => i + 1))
    expect(steps.map(([, total]) => total)).toEqual(steps.map(() => steps.length))
  })

  it("lets the --cors origin and a STORE_CORS / AUTH_CORS origin already set call the store and auth APIs (CORS preflight)", async () => {
    const preflight = async (origin: string, route: string) => {
      const res = await fetch(demo.store + route, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type,x-publishable-api-key" },
      })
      return res.headers.get("access-control-allow-origin")
    }
    for (const origin of [FLAG_ORIGIN, ENV_ORIGIN, demo.storefront]) {
      expect(await preflight(origin, "/store/carts")).toBe(origin)
      expect(await preflight(origin, "/auth/customer/emailpass")).toBe(origin)
    }
    expect(await preflight("http://localhost:4444", "/store/carts")).toBeNull()
  })

  /** The demo admin's headers for the Admin API, as the dashboard signs in. */
  const adminHeaders = async () => {
    const login = await fetch(`${demo.store}/auth/user/emailpass`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: "admin@pgs.demo", password: "pgs-demo-admin" }),
    })
    return { "content-type": "application/json", authorization: `Bearer ${((await login.json()) as { token: string }).token}` }
  }

  it("settles a payout by itself: pending at first, then final through the gateway's webhook", async () => {
    const medusa = demo.store
    const headers = await adminHeaders()
    const beneficiary = { type: "bank_account", account_number: "123456789012", account_name: "Asha Traders", ifsc: "HDFC0001234" }
    const body = { reference: `demo-po-${Date.now()}`, amount: "1250.50", currency_code: "inr", description: "Supplier settlement", beneficiary }
    const created = await fetch(`${medusa}/admin/pgs/payouts`, { method: "POST", headers, body: JSON.stringify(body) })
    expect(created.status).toBe(201)
    const { payout } = (await created.json()) as { payout: { id: string; status: string } }
    expect(payout.status).toBe("PENDING")
    const final = await waitFor(
      async () => {
        const res = await fetch(`${medusa}/admin/pgs/payouts/${payout.id}`, { headers })
        const current = ((await res.json()) as { payout: { status: string } }).payout
        return current.status !== "PENDING" && current
      },
      { timeoutMs: 60_000, intervalMs: 500, what: "the demo's payout settled" },
    )
    expect(final.status).toBe("APPROVED")
  })

  /**
   * A shopper's card order through the demo storefront, on its order page (left open for the first caller). Made
   * once: the exchange test below goes on from the same order (run alone, it makes its own).
   */
  let cardOrder: Promise<{ page: Page; orderId: string }> | undefined
  const buyByCard = () =>
    (cardOrder ??= (async () => {
      const page = await (await browser.newContext()).newPage()
      await toPayment(page, "Europe (EUR)")
      await demoStorefrontPayByCard(page, "4000000000001000")
      return { page, orderId: /\/order\/(order_\w+)/.exec(page.url())![1]! }
    })())

  it("sells by card through the demo storefront and shows the order", async () => {
    const { page } = await buyByCard()
    expect(await page.locator("[data-payment-status]").textContent()).toBe("authorized")
    await screenshot(page, "demo-card-order")
    await page.context().close()
  })

  it("offers no pp_system_default in any seeded region, through the store API", async () => {
    const key = /store API\s+\S+\s+\(publishable key (\S+)\)/.exec(demo.output())![1]!
    const store = { "x-publishable-api-key": key }
    const { regions } = (await (await fetch(`${demo.store}/store/regions?fields=id,name`, { headers: store })).json()) as { regions: Array<{ id: string }> }
    expect(regions.length).toBe(4)
    for (const region of regions) {
      const res = await fetch(`${demo.store}/store/payment-providers?region_id=${region.id}`, { headers: store })
      const ids = ((await res.json()) as { payment_providers: Array<{ id: string }> }).payment_providers.map((p) => p.id)
      expect(ids).toContain("pp_pgs_pgs")
      expect(ids).not.toContain("pp_system_default")
    }
  })

  it("fulfills an order from the seeded warehouse as the dashboard does, so an exchange can take its item back and ask for the difference", async () => {
    const { orderId } = await buyByCard()
    const headers = await adminHeaders()
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${demo.store}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      const data = (await res.json()) as any
      if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(data).slice(0, 400)}`)
      return data
    }
    // What the dashboard's "Fulfill items" offers: the sales channel's warehouse and its delivery option.
    const { order } = await call("GET", `/admin/orders/${orderId}?fields=id,sales_channel_id,*items`)
    const { stock_locations } = await call("GET", `/admin/stock-locations?sales_channel_id=${order.sales_channel_id}&fields=id,name`)
    expect(stock_locations.map((l: { name: string }) => l.name)).toEqual(["PGS demo warehouse"])
    const { shipping_options } = await call("GET", `/admin/shipping-options?stock_location_id=${stock_locations[0].id}&fields=id,name`)
    expect(shipping_options.map((o: { name: string }) => o.name).sort()).toEqual(["Delivery by email", "Return by email"])
    const delivery = shipping_options.find((o: { name: string }) => o.name === "Delivery by email")
    const item = order.items[0]
    await call("POST", `/admin/orders/${orderId}/fulfillments`, { location_id: stock_locations[0].id, shipping_option_id: delivery.id, items: [{ id: item.id, quantity: item.quantity }] })

    // An exchange for something dearer: the order owes the difference, which Copy payment link collects.
    const { products } = await call("GET", "/admin/products?handle=sandbox-gift-card&fields=id,*variants")
    // The reasons the dashboard's return, exchange and claim forms offer.
    const { return_reasons } = await call("GET", "/admin/return-reasons?fields=id,value")
    expect(return_reasons.map((r: { value: string }) => r.value).sort()).toEqual(["changed_mind", "damaged", "not_as_described", "wrong_item"])
    const damaged = return_reasons.find((r: { value: string }) => r.value === "damaged")
    const { exchange } = await call("POST", "/admin/exchanges", { order_id: orderId })
    await call("POST", `/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: item.id, quantity: 1, reason_id: damaged.id }] })
    await call("POST", `/admin/exchanges/${exchange.id}/outbound/items`, { items: [{ variant_id: products[0].variants[0].id, quantity: 2 }] })
    await call("POST", `/admin/exchanges/${exchange.id}/request`)
    const after = (await call("GET", `/admin/orders/${orderId}?fields=id,*payment_collections`)).order
    expect(after.payment_collections.some((c: { status: string }) => c.status === "not_paid")).toBe(true)
  })

  it("sells by a redirect method: the sandbox provider page approves, the return page shows the order", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await toPayment(page, "Europe (EUR)")
    await page.locator('input[value="pp_pgs-open-banking_pgs"]').check()
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await page.waitForURL(/\/provider\//)
    await page.getByRole("button", { name: "Approve" }).click()
    await page.waitForURL(/\/checkout\/return/)
    await page.waitForURL(/\/order\/order_/, { timeout: 60_000 })
    await page.locator("[data-payment-status]").waitFor()
    expect(await page.locator("[data-payment-status]").textContent()).toBe("captured")
    await screenshot(page, "demo-redirect-order")
    await context.close()
  })

  it("stops everything on Ctrl-C", async () => {
    const exited = new Promise<number | null>((resolve) => demo.child.once("exit", (code) => resolve(code)))
    process.kill(demo.child.pid!, "SIGINT") // the demo alone: it must stop what it started itself
    expect(await exited).toBe(0)
    // Nothing of its process group (Medusa, the storefront, the sandbox) outlives it.
    const groupGone = () => {
      try {
        process.kill(-demo.child.pid!, 0)
        return false
      } catch {
        return true
      }
    }
    await waitFor(groupGone, { timeoutMs: 20_000, what: "every process the demo started has exited" })
    expect(demo.output()).toContain("[demo] stopping")
  })
})

/** Redis on this machine (CI and the development machine run one); elsewhere the split-mode suite is skipped, saying so. */
const REDIS_URL = process.env.REDIS_URL ?? "redis://localhost:6379/1"
const redisUp = (() => {
  const url = new URL(REDIS_URL)
  const probe = `const s=require("net").connect(${Number(url.port || 6379)},${JSON.stringify(url.hostname)});s.setTimeout(1000,()=>process.exit(1));s.on("connect",()=>process.exit(0));s.on("error",()=>process.exit(1))`
  return spawnSync(process.execPath, ["-e", probe]).status === 0
})()
const describeWithRedis = (name: string, fn: () => void) => (redisUp ? describe(name, fn) : describe.skip(`${name} — skipped: no Redis at ${REDIS_URL}`, fn))

describeWithRedis("npm run demo -- --servers 2 --workers 1 (server and worker processes over Redis)", () => {
  let demo: Demo | undefined
  beforeAll(async () => {
    // On the store the browser demo left, when it ran (a developer's second run); from empty otherwise.
    const again = leftStore
    leftStore = undefined
    demo = await startDemo("split", ["--servers", "2", "--workers", "1", "--quiet"], { REDIS_URL }, again)
  })
  afterAll(() => stopDemo(demo))

  it("has the worker process a redirect payment's webhook while a server answers the shopper", async () => {
    expect(demo!.output()).toContain("Medusa: 2 server(s) and 1 worker(s)")
    const store = demo!.output().match(/store API\s+(\S+)\s+\(publishable key (\S+)\)/)!
    const [base, key] = [store[1]!, store[2]!]
    const api = async (p: string, body?: unknown) => {
      const res = await fetch(base + p, { method: body ? "POST" : "GET", headers: { "content-type": "application/json", "x-publishable-api-key": key }, body: body ? JSON.stringify(body) : undefined })
      return res.json() as Promise<any>
    }
    const { regions } = await api("/store/regions")
    const eur = regions.find((r: any) => r.currency_code === "eur")
    const { products } = await api(`/store/products?region_id=${eur.id}`)
    const address = { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical St", city: "Berlin", postal_code: "10115", country_code: "de" }
    const { cart } = await api("/store/carts", { region_id: eur.id, email: "split@example.com", billing_address: address })
    await api(`/store/carts/${cart.id}/line-items`, { variant_id: products[0].variants[0].id, quantity: 1 })
    const { payment_collection } = await api("/store/payment-collections", { cart_id: cart.id })
    const created = await api(`/store/payment-collections/${payment_collection.id}/payment-sessions`, { provider_id: "pp_pgs-open-banking_pgs" })
    const sessionId = created.payment_collection.payment_sessions[0].id
    await api(`/store/pgs/payment-sessions/${sessionId}/client-info`, {})
    expect((await api(`/store/carts/${cart.id}/complete`, {})).error.type).toBe("payment_requires_more_error")
    const url = (await api(`/store/pgs/payment-sessions/${sessionId}/status`)).payment_session.next_action.url
    expect((await fetch(`${url}/approve`, { method: "POST", redirect: "manual" })).status).toBe(303)
    // The shopper has not come back: only the webhook, processed by the worker, can authorize the session.
    await waitFor(async () => ["authorized", "captured"].includes((await api(`/store/pgs/payment-sessions/${sessionId}/status`)).payment_session.status), {
      timeoutMs: 60_000,
      what: "the worker applied the approval webhook",
    })
    const done = await api(`/store/carts/${cart.id}/complete`, {})
    expect(done.type).toBe("order")
    // The server process's dedicated receiver took the webhook; the worker process applied it. (The gateway also keeps
    // the browser demo's deliveries, to that demo's receiver: this payment's are the ones its reference names.)
    const all = (await (await fetch(`${demo!.sandbox}/_sandbox/webhooks/deliveries`)).json()) as { deliveries: Array<{ url: string; state: string; body: string }> }
    const deliveries = all.deliveries.filter((d) => d.body.includes(sessionId))
    expect(deliveries.length).toBeGreaterThan(0)
    expect(new Set(deliveries.map((d) => d.url))).toEqual(new Set([demo!.webhooks]))
    expect(deliveries.some((d) => d.state === "delivered")).toBe(true)
  })

  ;(hasChromium ? it : it.skip)("opens the dashboard through the balancer in front of two servers and lists the order placed through it", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] })
    try {
      const page = await signIn(browser, new URL(demo!.admin).origin, { email: "admin@pgs.demo", password: "pgs-demo-admin" })
      await page.goto(`${new URL(demo!.admin).origin}/app/orders`, { timeout: 60_000 })
      await page.getByRole("heading", { name: "Orders" }).waitFor({ timeout: 60_000 })
      // The order the test above placed, read through the balancer (the list's API calls go to both servers).
      await page.getByText("split@example.com").first().waitFor({ timeout: 60_000 })
      await screenshot(page, "demo-two-servers-dashboard-orders")
    } finally {
      await browser.close()
    }
  })
})
