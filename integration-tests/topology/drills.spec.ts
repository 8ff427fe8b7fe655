/**
 * The plugin in Medusa's production topology: two `medusa start` servers and a worker on one PostgreSQL and one
 * Redis (Medusa's Redis event bus, workflow engine, locking and cache), a round-robin balancer in front, the
 * gateway (the sandbox) sending its webhooks to the servers' receivers in turn. Each drill does what many
 * shoppers, the gateway and the dashboard do at once, or kills a process at a chosen moment, and then compares
 * what the gateway holds with what Medusa holds, field by field. Booted once (about 2 minutes); skipped where no
 * redis-server can be started.
 */
import { topologySuite, waitFor, PGS } from "./support/store"
import { deliveredBody, firstTimes, ledger, post, signed } from "./support/gateway"

jest.setTimeout(300_000)

topologySuite("production topology: 2 servers + 1 worker on one PostgreSQL and Redis", (s) => {
  const paymentOf = async (sessionId: string) => (await s.sql("select * from payment where payment_session_id = $1 and deleted_at is null", [sessionId]))
  const ordersOf = async (cartId: string) => (await s.sql("select order_id from order_cart where cart_id = $1 and deleted_at is null", [cartId])).map((r) => r.order_id as string)

  it("completes one cart 20 times at once over both servers, its approval webhook delivered to both: one order, one gateway transaction, one Medusa payment", async () => {
    const cart = await s.readyCart()
    const completions = Promise.all(
      Array.from({ length: 20 }, (_, i) => s.store(s.server(((i % 2) + 1) as 1 | 2).url).post(`/store/carts/${cart.cartId}/complete`)),
    )
    // As soon as the gateway holds the transaction, its approval webhook arrives at both servers at the same moment.
    const transaction = await waitFor(async () => firstTimes(await ledger(s.sandbox)).find((e) => e.reference === cart.reference), { timeoutMs: 120_000, what: "the gateway's transaction" })
    const webhook = await signed(s.sandbox, await deliveredBody(s.sandbox, transaction.transaction_id))
    const webhookStatuses = await Promise.all(s.topology.servers.map((p) => post(`${p.receiverUrl}/hooks/pgs/webhooks`, webhook)))
    const answers = await completions

    const orderIds = new Set(answers.filter((a) => a.status === 200 && a.body.type === "order").map((a) => a.body.order.id))
    expect(answers.map((a) => a.status).filter((st) => st !== 200)).toEqual([])
    expect(orderIds.size).toBe(1)
    expect(webhookStatuses).toEqual([200, 200])

    // Medusa: one order for the cart, one payment, authorized for the gateway's transaction and amount.
    expect(await ordersOf(cart.cartId)).toEqual([...orderIds])
    const payments = await paymentOf(cart.sessionId)
    expect(payments).toHaveLength(1)
    // The gateway: one transaction for this reference (the others were idempotent replays or never sent).
    const gateway = firstTimes(await ledger(s.sandbox)).filter((e) => e.reference === cart.reference)
    expect(gateway).toHaveLength(1)
    expect({ transaction: payments[0].data.transaction_id, amount: Math.round(Number(payments[0].amount) * 100), provider: payments[0].provider_id }).toEqual({
      transaction: gateway[0]!.transaction_id,
      amount: gateway[0]!.amount,
      provider: PGS,
    })
    expect(gateway[0]!.status).toBe("APPROVED")
    // The webhook: recorded once, applied once.
    const events = await waitFor(async () => {
      const rows = await s.sql("select * from pgs_webhook_event where subject_id = $1", [transaction.transaction_id])
      return rows.length && rows.every((r) => r.processed_at) ? rows : null
    }, { timeoutMs: 60_000, what: "the approval webhook processed" })
    expect(events).toHaveLength(1)
  })

  it("captures and refunds, each clicked twice on two servers at once: one gateway operation each, one Medusa capture and refund", async () => {
    const cart = await s.readyCart()
    const done = await s.store().post(`/store/carts/${cart.cartId}/complete`)
    expect(done.body.type).toBe("order")
    const [payment] = await paymentOf(cart.sessionId)
    const parent = payment.data.transaction_id as string
    const admins = await Promise.all([s.admin(s.server(1).url), s.admin(s.server(2).url)])

    const captures = await Promise.all(admins.map((a) => a.post(`/admin/payments/${payment.id}/capture`, {})))
    // The whole amount: Medusa's guard (refunded ≤ captured, under its row lock) lets one of the two through. Two
    // clicks of a partial amount are two refunds Medusa accepts, on one process as on two (docs/production.md).
    const refundMinor = cart.amountMinor
    const refunds = await Promise.all(admins.map((a) => a.post(`/admin/payments/${payment.id}/refund`, { amount: refundMinor / 100 })))

    const gateway = firstTimes(await ledger(s.sandbox)).filter((e) => e.parent_id === parent)
    const medusaCaptures = await s.sql("select * from capture where payment_id = $1 and deleted_at is null", [payment.id])
    const medusaRefunds = await s.sql("select * from refund where payment_id = $1 and deleted_at is null", [payment.id])
    const summary = {
      capture_answers: captures.map((c) => c.status).sort(),
      refund_answers: refunds.map((r) => r.status).sort(),
      gateway_captures: gateway.filter((e) => e.transaction_type === "CAPTURE").map((e) => ({ amount: e.amount, status: e.status })),
      gateway_refunds: gateway.filter((e) => e.transaction_type === "REFUND").map((e) => ({ amount: e.amount, status: e.status })),
      medusa_captures: medusaCaptures.map((c) => ({ amount: Math.round(Number(c.amount) * 100) })),
      medusa_refunds: medusaRefunds.map((r) => ({ amount: Math.round(Number(r.amount) * 100) })),
    }
    expect(summary).toMatchObject({
      gateway_captures: [{ amount: cart.amountMinor, status: "APPROVED" }],
      gateway_refunds: [{ amount: refundMinor, status: "APPROVED" }],
      medusa_captures: [{ amount: cart.amountMinor }],
      medusa_refunds: [{ amount: refundMinor }],
    })
    // At least one click of each succeeded; the other either succeeded as the same operation or was refused in words.
    expect(captures.some((c) => c.status === 200)).toBe(true)
    expect(refunds.some((r) => r.status === 200)).toBe(true)
  })
})
