/**
 * The card-testing guard, attacked as issue 46 found it: a bot with stolen cards, one address, through every way a
 * storefront can reach the gateway. It reaches the gateway a handful of times, then gets 429 with Retry-After and
 * words, and the shop admin sees "Card testing suspected"; a shopper whose bank declines twice still pays. The
 * counters live in the store's PostgreSQL (no Redis here), through Medusa's own connection.
 */
import { storeBody } from "../support/store"
import { BROWSER_INFO, payInFrame, storePost } from "../support/checkout"
import { walletPayment } from "../support/checkout-direct"
import { capturedOrder, editAddingItem, issueLink, openLink, owedByOrder } from "../support/pay-link"
import prunePgsHistory from "../../../src/jobs/prune-pgs-history"
import { openCardTestingItem } from "../../../src/payments/card-testing/alert"

/** Polls until `check` holds or the deadline passes (webhooks are processed asynchronously). */
async function eventually<T>(read: () => Promise<T>, check: (value: T) => boolean, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await read()
    if (check(value) || Date.now() > deadline) return value
    await new Promise((r) => setTimeout(r, 100))
  }
}

export default storeBody("card-testing guard", (s) => {
  const gatewayRequests = async (target: string): Promise<number> => (await s.sandbox.control("GET", "/_sandbox/stats")).body.requests[target] ?? 0
  const authorizations = () => gatewayRequests("POST /api/transactions/authorize")
  const gatewaySessions = () => gatewayRequests("POST /api/sessions")
  const declined = () => [s.sandbox.testCard("frictionless_insufficient_funds"), s.sandbox.testCard("frictionless_insufficient_funds", "MASTERCARD")]
  /** A wallet payment with this card, as a storefront's Direct API checkout sends it. */
  const walletData = (pan: string) => ({ payment_method: walletPayment(pan), browser_info: BROWSER_INFO })

  const openSession = async (collectionId: string, data?: Record<string, unknown>, headers: Record<string, string> = {}) =>
    s.api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: "pp_pgs_pgs", ...(data ? { data } : {}) }, { headers: { ...s.storeHeaders, ...headers }, validateStatus: () => true })
  const collectionOf = async (cartId: string, headers: Record<string, string> = {}) =>
    (await s.api.post("/store/payment-collections", { cart_id: cartId }, { headers: { ...s.storeHeaders, ...headers } })).data.payment_collection.id as string

  const expectRefused = (res: { status: number; headers: Record<string, unknown>; data: any }) => {
    expect(res.status).toBe(429)
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(0)
    expect(res.data.message).toMatch(/^Too many payment attempts\. Try again in \d+ minutes?\.$/)
    // The minutes the widget tells in the shopper's language: Retry-After's, rounded up.
    expect(res.data.minutes).toBe(String(Math.ceil(Number(res.headers["retry-after"]) / 60)))
  }

  /** A refused page sends the headers of every page of the plugin (docs/security.md, "The plugin's pages"). */
  const expectPageHeaders = (headers: Record<string, unknown>) =>
    expect(headers).toMatchObject({
      "content-security-policy": expect.stringContaining("frame-ancestors 'none'"),
      "x-content-type-options": "nosniff",
      "x-frame-options": "DENY",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
    })

  /** Declines the store counted from the gateway's webhooks (they arrive within moments in the sandbox). */
  const countedDeclines = async () => {
    const { rows } = await s.container().resolve("__pg_connection__").raw(`select count(*)::int as n from pgs_card_testing_event where kind = 'decline'`)
    return rows[0].n as number
  }

  const attentionItem = async () => {
    const res = await s.api.get("/admin/pgs/attention", { headers: await s.adminHeaders() })
    return (res.data.items as any[]).find((i) => i.kind === "card_testing")
  }

  it("stops a bot trying 50 stolen cards by new session and completion on one cart: a handful reach the gateway, then 429 with Retry-After and words, and the admin is told", async () => {
    const cart = await s.createCart({ email: "bot@example.com" })
    const collection = await collectionOf(cart.id)
    const before = await authorizations()
    const statusReadsBefore = await gatewayRequests("GET /api/transactions/:id/status")
    let refused: any = null
    for (let card = 0; card < 50 && !refused; card++) {
      const session = await openSession(collection, walletData(declined()[card % 2]!))
      if (session.status === 429) refused = session
      else {
        const done = await s.api.post(`/store/carts/${cart.id}/complete`, {}, { headers: s.storeHeaders, validateStatus: () => true })
        expect(done.status).toBeLessThan(500)
        if (done.status === 429) refused = done
        // A bot does not wait; the guard still learns each decline from its webhook moments later.
        else await eventually(countedDeclines, (n) => n >= card + 1, 3_000)
      }
    }
    expect(refused).not.toBeNull()
    expectRefused(refused)
    expect((await authorizations()) - before).toBeLessThanOrEqual(5)
    // Each decline's webhook is recorded without reading the transaction again from the gateway.
    expect((await gatewayRequests("GET /api/transactions/:id/status")) - statusReadsBefore).toBeLessThanOrEqual(5)

    // Every other way in is closed to it too: the plugin's session routes, cart completion.
    const again = await s.api.post(`/store/carts/${cart.id}/complete`, {}, { headers: s.storeHeaders, validateStatus: () => true })
    expectRefused(again)

    const item = await eventually(attentionItem, (i) => !!i)
    expect(item).toMatchObject({ title: "Card testing suspected", needs_person: true })
    expect(item.sentence).toMatch(/blocked a client \d+ times? and the gateway declined [1-5] attempts? that reached it, from 1 address \(.*127\.0\.0\.1\) on 1 cart/)
    expect(item.sentence).toContain(cart.id)

    const health = await s.api.get("/admin/pgs/health", { headers: await s.adminHeaders() })
    expect(health.data.card_testing).toMatchObject({ refused: expect.any(Number), lockdown: null })
    expect(health.data.card_testing.refused).toBeGreaterThan(0)
  })

  it("tells the admin how many addresses and carts a bot used in all, beyond the ten it lists", async () => {
    const knex = s.container().resolve("__pg_connection__")
    await knex("pgs_card_testing_event").insert(Array.from({ length: 12 }, (_, i) => ({ kind: "decline", client_address: `198.51.100.${i}`, cart_id: `cart_bot_${i}` })))
    await openCardTestingItem(knex)
    const item = await attentionItem()
    expect(item.sentence).toMatch(/from 12 addresses \((198\.51\.100\.\d+, ){9}198\.51\.100\.\d+, …\) on 12 carts \((cart_bot_\d+, ){9}cart_bot_\d+, …\)/)
  })

  it("stops a bot that takes a new cart and email for each stolen card, by its address", async () => {
    const before = await authorizations()
    let refused: any = null
    for (let card = 0; card < 50 && !refused; card++) {
      const cart = await s.createCart({ email: `bot${card}@example.com` })
      const session = await openSession(await collectionOf(cart.id), walletData(declined()[card % 2]!))
      if (session.status === 429) {
        refused = session
        break
      }
      const done = await s.api.post(`/store/carts/${cart.id}/complete`, {}, { headers: s.storeHeaders, validateStatus: () => true })
      if (done.status === 429) refused = done
      else await eventually(countedDeclines, (n) => n >= card + 1, 3_000)
    }
    expectRefused(refused)
    expect((await authorizations()) - before).toBeLessThanOrEqual(6)
  })

  it("refuses a cart id too long for the guard's counters with 400, before the guard, on cart completion", async () => {
    const long = await s.api.post(`/store/carts/cart_${"x".repeat(8_000)}/complete`, {}, { headers: s.storeHeaders, validateStatus: () => true })
    expect(long.status).toBe(400)
    expect(JSON.stringify(long.data)).toMatch(/at most 200 characters/)
  })

  it("hands one cart a limited number of gateway sessions, not 200", async () => {
    const cart = await s.createCart()
    const collection = await collectionOf(cart.id)
    const before = await gatewaySessions()
    const answers: number[] = []
    for (let i = 0; i < 30; i++) answers.push((await openSession(collection)).status)
    expect(answers.filter((status) => status >= 500)).toEqual([])
    expect(answers.filter((status) => status === 429).length).toBeGreaterThan(15)
    expect((await gatewaySessions()) - before).toBeLessThanOrEqual(10)
    // The admin is told when the block starts (the 11th request meets the cart's and the address's limit of new
    // sessions at once), not for each of the 20 requests refused while it lasts.
    const knex = s.container().resolve("__pg_connection__")
    expect((await knex.raw(`select count(*)::int as n from pgs_card_testing_event where kind = 'refused'`)).rows[0].n).toBe(1)
    expect((await knex.raw(`select checks from pgs_follow_up where key = 'card-testing'`)).rows).toEqual([{ checks: 1 }])
  })

  it("hands one cart a limited number of gateway sessions through the plugin's one-call route too, in any spelling of its path, and keeps the address that made its collection", async () => {
    const cart = await s.createCart()
    const before = await gatewaySessions()
    const answers = []
    for (let i = 0; i < 12; i++) answers.push(await storePost(s, i % 2 ? `/STORE/pgs/Carts/${cart.id}/payment-sessions/` : `/store/pgs/carts/${cart.id}/payment-sessions`, { provider_id: "pp_pgs_pgs" }))
    expect(answers.slice(0, 10).map((res) => res.status)).toEqual(Array(10).fill(200))
    answers.slice(10).forEach(expectRefused)
    expect((await gatewaySessions()) - before).toBe(10)
    // The collection this route made remembers who asked for its sessions, so the gateway's declines count against them.
    const collection = answers[0]!.data.payment_session.payment_collection_id
    const knex = s.container().resolve("__pg_connection__")
    expect((await knex.raw(`select client_address from pgs_card_testing_client where payment_collection_id = ?`, [collection])).rows).toEqual([{ client_address: expect.any(String) }])
  })

  it("hands one address at most 10 new gateway sessions, however many carts it opens them on at once", async () => {
    const collections = await Promise.all(Array.from({ length: 8 }, async () => collectionOf((await s.createCart()).id)))
    const before = await gatewaySessions()
    const statuses = (await Promise.all(collections.flatMap((collection) => [openSession(collection), openSession(collection)]))).map((res) => res.status)
    expect(statuses.filter((status) => status !== 200 && status !== 429)).toEqual([])
    expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(10)
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(6)
    expect((await gatewaySessions()) - before).toBeLessThanOrEqual(10)
  })

  it("counts the declines of cards posted straight to the gateway on an embedded-fields session against the client that asked for it", async () => {
    // First as a shopper: an order that owes more, and its pay link (opened from this address at the end).
    const { orderId } = await capturedOrder(s)
    await editAddingItem(s, orderId)
    const link = await issueLink(s, orderId, (await owedByOrder(s, orderId)).owed[0]!.payment_collection_id)

    const cart = await s.createCart()
    const collection = await collectionOf(cart.id)
    const first = await openSession(collection)
    const session = first.data.payment_collection.payment_sessions.find((p: any) => p.provider_id === "pp_pgs_pgs")
    // The gateway's form, not ours: the store cannot see these posts, only their declines (webhooks).
    const statusReadsBefore = await gatewayRequests("GET /api/transactions/:id/status")
    for (let card = 0; card < 8; card++) await payInFrame(s.sandbox, session, declined()[card % 2]!)
    // All eight, so that none arrives in the next test (the same test cards would count there).
    expect(await eventually(countedDeclines, (n) => n >= 8)).toBe(8)
    // Each decline's webhook is recorded; the gateway is asked once, when the session's first decline is recorded on it.
    expect((await gatewayRequests("GET /api/transactions/:id/status")) - statusReadsBefore).toBeLessThanOrEqual(1)
    expectRefused(await openSession(collection))
    expectRefused(await storePost(s, `/store/pgs/payment-sessions/${session.id}/transaction`, { transaction_id: "trx_anything" }))
    expectRefused(await storePost(s, `/store/pgs/payment-sessions/${session.id}/client-info`, { browser_info: BROWSER_INFO }))
    expectRefused(await storePost(s, `/store/pgs/payment-sessions/${session.id}/three-ds/request-authentication`, { method_completed: true }))
    expectRefused(await storePost(s, `/store/pgs/payment-sessions/${session.id}/three-ds/authentication-completed`, { trans_status: "Y" }))
    const notified = await s.api.post("/hooks/pgs/three-ds/notification", "cres=e30", { headers: { "content-type": "application/x-www-form-urlencoded" }, validateStatus: () => true })
    expect(notified.status).toBe(429)
    expect(notified.data).toMatch(/^Too many payment attempts\./)
    expectPageHeaders(notified.headers)
    // Matched as Express routes: another spelling of the path meets the same guard.
    expectRefused(await storePost(s, `/STORE/pgs/Payment-Sessions/${session.id}/transaction/`, { transaction_id: "trx_anything" }))

    // A pay link opened from the same address: a page with the words, never the gateway's hosted page.
    const page = await openLink(link.url.replace(/^https?:\/\/[^/]+/, s.medusaUrl))
    expect(page.status).toBe(429)
    expect(Number(page.headers["retry-after"])).toBeGreaterThan(0)
    expect(page.body).toMatch(/^Too many payment attempts\. Try again in \d+ minutes?\.$/)
    expectPageHeaders(page.headers)
  })

  it("lets a shopper whose bank declines two cards pay with the third", async () => {
    const cart = await s.createCart()
    const collection = await collectionOf(cart.id)
    for (const [i, pan] of declined().entries()) {
      expect((await openSession(collection, walletData(pan))).status).toBe(200)
      const done = await s.completeCart(cart.id)
      expect(done.data.type).toBe("cart")
      await eventually(countedDeclines, (n) => n >= i + 1)
    }
    expect((await openSession(collection, walletData(s.sandbox.testCard("frictionless_approved")))).status).toBe(200)
    const paid = await s.completeCart(cart.id)
    expect(paid.data.type).toBe("order")
    expect(await attentionItem()).toBeUndefined()
    expect((await s.api.get("/admin/pgs/health", { headers: await s.adminHeaders() })).data.card_testing).toBeNull()
  })

  it("counts a decline once however often its gateway event is processed again", async () => {
    const cart = await s.createCart()
    const session = (await openSession(await collectionOf(cart.id))).data.payment_collection.payment_sessions[0]
    await payInFrame(s.sandbox, session, declined()[0]!)
    await eventually(countedDeclines, (n) => n >= 1)
    const knex = s.container().resolve("__pg_connection__")
    const declinesOfAddress = async () => (await knex.raw(`select points from pgs_card_testing_counter where key = 'pgs_ct_declinesPerAddress:127.0.0.1'`)).rows[0]?.points
    expect(await declinesOfAddress()).toBe(1)
    // The decline is counted inside the event's processing, which writes its outcome after: poll for that too.
    const appliedEvents = async () => (await knex.raw(`select id from pgs_webhook_event where outcome like 'applied:%'`)).rows as Array<{ id: string }>
    const rows = await eventually(appliedEvents, (found) => found.length >= 1)
    expect(rows).toHaveLength(1)
    for (let again = 0; again < 2; again++) {
      const res = await s.api.post(`/admin/pgs/events/${rows[0].id}/process`, {}, { headers: await s.adminHeaders() })
      expect(res.data.outcome).toMatch(/^ignored:/)
    }
    expect(await countedDeclines()).toBe(1)
    expect(await declinesOfAddress()).toBe(1)
  })

  it("forgets which client asked for a session after a week, and what the guard saw with the rest of the plugin's history", async () => {
    const cart = await s.createCart()
    const collection = await collectionOf(cart.id)
    const session = (await openSession(collection)).data.payment_collection.payment_sessions[0]
    await payInFrame(s.sandbox, session, declined()[0]!)
    await eventually(countedDeclines, (n) => n >= 1)
    const knex = s.container().resolve("__pg_connection__")
    const rows = async () => (await knex.raw(`select (select count(*) from pgs_card_testing_client)::int as clients, (select count(*) from pgs_card_testing_event)::int as events`)).rows[0]
    expect(await rows()).toEqual({ clients: 1, events: 1 })
    await prunePgsHistory(s.container(), { scheduledFor: new Date(Date.now() + 8 * 86_400_000) })
    expect(await rows()).toEqual({ clients: 0, events: 1 })
    await prunePgsHistory(s.container(), { scheduledFor: new Date(Date.now() + 181 * 86_400_000) })
    expect(await rows()).toEqual({ clients: 0, events: 0 })
  })

  it("keeps cards for logged-in customers while the shop admin's switch is on, and for everyone again once it is off", async () => {
    const headers = await s.adminHeaders()
    const bad = await s.api.post("/admin/pgs/settings/card-testing", { mode: "logged_in_only" }, { headers, validateStatus: () => true })
    expect(bad.status).toBe(400)
    expect(JSON.stringify(bad.data)).toMatch(/hours/)
    const on = await s.api.post("/admin/pgs/settings/card-testing", { mode: "logged_in_only", hours: 4 }, { headers })
    expect(on.data.card_testing.lockdown).toMatchObject({ mode: "logged_in_only" })
    expect(Date.parse(on.data.card_testing.lockdown.until) - Date.now()).toBeGreaterThan(3.9 * 3_600_000)

    const anonymous = await s.createCart()
    const refused = await openSession(await collectionOf(anonymous.id))
    expect(refused.status).toBe(403)
    expect(refused.data.message).toMatch(/signed-in customers only/)
    const oneCall = await storePost(s, `/store/pgs/carts/${anonymous.id}/payment-sessions`, { provider_id: "pp_pgs_pgs" })
    expect(oneCall.status).toBe(403)
    expect(oneCall.data.message).toMatch(/signed-in customers only/)
    // The hosted card page, and the card family under any id a store registers it by, are closed too.
    for (const provider_id of ["pp_pgs-hosted_pgs", "pp_pgs_eu", "pp_pgs-hosted_eu"]) {
      const other = await s.api.post(`/store/payment-collections/${await collectionOf(anonymous.id)}/payment-sessions`, { provider_id }, { headers: s.storeHeaders, validateStatus: () => true })
      expect({ provider_id, status: other.status }).toEqual({ provider_id, status: 403 })
    }
    // Alternative methods stay open to everyone.
    const wallet = await s.api.post(`/store/payment-collections/${await collectionOf(anonymous.id)}/payment-sessions`, { provider_id: "pp_pgs-wallets_pgs" }, { headers: s.storeHeaders, validateStatus: () => true })
    expect(wallet.status).not.toBe(403)

    const customer = await s.registerCustomer()
    const auth = { authorization: `Bearer ${customer.token}` }
    const theirs = await s.createCart({ customerToken: customer.token, email: customer.email })
    expect((await openSession(await collectionOf(theirs.id, auth), undefined, auth)).status).toBe(200)

    await s.api.post("/admin/pgs/settings/card-testing", { mode: "off" }, { headers })
    expect((await openSession(await collectionOf(anonymous.id))).status).toBe(200)
  })
})
