/**
 * Gateway faults during checkout itself (not management): the session, authorize and payment calls answer 5xx,
 * lose their answer after acting, or are never received. Whatever happens, the shopper gets one order and the
 * gateway one transaction — or no order, a clear error, and nothing charged.
 */
import { pgsStoreSuite } from "./support/store"
import { ledger } from "./support/checkout"
import { directCart, walletPayment } from "./support/checkout-direct"
import { choose, startRedirect } from "./support/redirect"
import { orderOfCart } from "./support/webhooks"

pgsStoreSuite(
  "checkout under gateway faults",
  (s) => {
  const fault = (target: string, kind: string, extra: Record<string, unknown> = {}) =>
    s.sandbox.control("POST", "/_sandbox/faults", { target, kind, ...extra })
  afterEach(() => s.sandbox.control("DELETE", "/_sandbox/faults"))

  /** Transactions the gateway created for a reference (replays of an idempotent repeat excluded). */
  const originals = async (reference: string) => (await ledger(s.sandbox)).filter((e) => e.reference === reference && !e.replay && !e.parent_id)

  it("creates the embedded-fields session although the gateway answered 503 first", async () => {
    await fault("POST /api/sessions", "status", { status: 503 })
    const requestsBefore = (await s.sandbox.control("GET", "/_sandbox/stats")).body.requests["POST /api/sessions"] ?? 0
    const cart = await s.createCart()
    const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
    const requestsAfter = (await s.sandbox.control("GET", "/_sandbox/stats")).body.requests["POST /api/sessions"]
    expect(requestsAfter - requestsBefore).toBe(2) // the 503, then the repeat
    // The sandbox runs in this process: one gateway session for the reference, the one the storefront got.
    const gatewaySessions = [...s.sandbox.sandbox.context.store.sessions.values()].filter((g) => g.reference === session.id)
    expect(gatewaySessions.map((g) => g.id)).toEqual([session.data.gateway_session_id])
  })

  it("charges a Direct API payment once when authorize's answer is lost after the gateway approved it", async () => {
    await fault("POST /api/transactions/authorize", "drop", { phase: "after" })
    const { cart, session } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    const done = await s.completeCart(cart.id)
    expect(done.data.type).toBe("order")
    const ledgerRows = (await ledger(s.sandbox)).filter((e) => e.reference === session.id)
    expect(ledgerRows.filter((e) => !e.replay)).toHaveLength(1) // the repeat found the same transaction
    expect(ledgerRows.filter((e) => e.replay)).toHaveLength(1)
  })

  it("answers with a clear error and places no order while the gateway is unavailable, then completes once it is back", async () => {
    // More failures than the client's retries: the completion itself fails.
    await fault("POST /api/transactions/authorize", "status", { status: 503, count: 3 })
    const { cart, session } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    const failed = await s.completeCart(cart.id)
    expect(failed.data.type).not.toBe("order")
    expect(JSON.stringify(failed.data)).toMatch(/try again|unavailable|not reachable/i)
    expect(await orderOfCart(s, cart.id)).toBeNull()
    expect(await originals(session.id)).toHaveLength(0) // nothing reached the gateway's books

    const retried = await s.completeCart(cart.id)
    expect(retried.data.type).toBe("order")
    expect(await originals(session.id)).toHaveLength(1)
  })

  it("starts one redirect payment when the payment endpoint's answer is lost", async () => {
    await fault("POST /api/transactions/payment", "drop", { phase: "after" })
    const r = await startRedirect(s, "pgs-open-banking", { currency: "eur" })
    expect(await originals(r.sessionId)).toHaveLength(1)
    await choose(r.url, "approve")
    const done = await s.completeCart(r.cartId)
    expect(done.data.type).toBe("order")
  })

  it("charges once when authorize times out after the gateway approved it (the repeat finds the same transaction)", async () => {
    // This suite's store gives up on a write after 1.5 s (PGS_TIMEOUT_WRITE_MS below); the gateway holds the answer.
    await fault("POST /api/transactions/authorize", "timeout", { phase: "after" })
    const { cart, session } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    const done = await s.completeCart(cart.id)
    expect(done.data.type).toBe("order")
    const rows = (await ledger(s.sandbox)).filter((e) => e.reference === session.id)
    expect(rows.filter((e) => !e.replay)).toHaveLength(1)
    expect(rows.filter((e) => e.replay).length).toBeGreaterThanOrEqual(1)
  })

  it("survives a 429 with Retry-After on authorize without a second charge", async () => {
    await fault("POST /api/transactions/authorize", "status", { status: 429 })
    const { cart, session } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    const done = await s.completeCart(cart.id)
    expect(done.data.type).toBe("order")
    expect(await originals(session.id)).toHaveLength(1)
  })

  it("answers the storefront 503 in the shopper's words (code pgs_gateway_unavailable) while the gateway is down, never a 500", async () => {
    const cart = await s.createCart()
    const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
    // More 503s than the client's retries on the read that verifies the reported transaction.
    await fault("GET /api/transactions/:id/status", "status", { status: 503, count: 10 })
    const res = await s.api.post(`/store/pgs/payment-sessions/${session.id}/transaction`, { transaction_id: "0123456789abcdef" }, { headers: s.storeHeaders, validateStatus: () => true })
    expect(res.status).toBe(503)
    expect(res.data).toMatchObject({ type: "unavailable", code: "pgs_gateway_unavailable" })
    expect(res.data.message).toMatch(/unavailable right now; please try another method/)
  })
},
  { env: { PGS_TIMEOUT_WRITE_MS: "1500" } },
)
