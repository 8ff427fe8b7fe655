/**
 * The order and customer widgets' admin routes: the gateway transaction behind an order's payment with the
 * webhook timeline, a sync from the gateway's status endpoint, and a customer's saved cards with delete.
 */
import { adminPost, paymentOfOrder } from "../support/checkout"
import { admin, customerWithSavedCard, paidOrder } from "../support/admin-pgs"
import { storeBody } from "../support/store"
import { processedEvent } from "../support/webhooks"
import { authorizeCard } from "../../sandbox/cards-support"

export default storeBody("admin: order and customer widgets", (s) => {
  it("shows the gateway's view of an order's payment and the webhooks received for it, with no secret", async () => {
    const { orderId, session, transactionId } = await paidOrder(s)
    const res = await admin(s, "get", `/admin/pgs/orders/${orderId}/gateway`)
    expect(res.status).toBe(200)
    expect(res.data.payments).toHaveLength(1)
    const [p] = res.data.payments
    expect(p).toMatchObject({
      payment_session_id: session.id,
      provider_id: "pp_pgs_pgs",
      transaction_id: transactionId,
      recorded: { terminal_id: "SBX-ALL-001", transaction_type: "AUTHORIZE", gateway_status: "APPROVED", integration: "embedded_fields" },
      gateway: {
        id: transactionId,
        status: "APPROVED",
        approved: true,
        pending: false,
        processing_code: "0000",
        outcome: { name: "approved", message: "Approved (0000)." },
        brand: "VISA",
        masked: expect.stringMatching(/^400000\*+1000$/),
        approval_code: expect.any(String),
        three_ds: expect.any(String),
      },
      in_sync: true,
    })
    expect(p.events.map((e: any) => e.transaction_id)).toContain(transactionId)
    expect(p.events[0]).toMatchObject({ event: expect.any(String), status: "APPROVED", processed_at: expect.any(String), outcome: expect.any(String) })
    const text = JSON.stringify(res.data)
    for (const secret of ["sealed", "integrity", "client_key", s.sandbox.config.client_key, s.sandbox.config.client_secret]) expect(text).not.toContain(secret)
  })

  it("adds management events to the timeline, newest last, and a sync reads the gateway again", async () => {
    const { orderId, transactionId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })).status).toBe(200)
    const captureId = (await admin(s, "get", `/admin/payments/${payment.id}?fields=data`)).data.payment.data.captures[0].transaction_id
    await processedEvent(s, captureId)

    const synced = await admin(s, "post", `/admin/pgs/orders/${orderId}/sync`)
    expect(synced.status).toBe(200)
    expect(synced.data.synced).toBe(true)
    const [p] = synced.data.payments
    expect(p.gateway).toMatchObject({ id: transactionId, status: "APPROVED" })
    const ids = p.events.map((e: any) => e.transaction_id)
    expect(ids.indexOf(captureId)).toBeGreaterThan(ids.indexOf(transactionId))
    const times = p.events.map((e: any) => Date.parse(e.received_at))
    expect([...times].sort((a, b) => a - b)).toEqual(times)
  })

  it("says when the gateway cannot be read instead of failing the page", async () => {
    const { orderId } = await paidOrder(s)
    await s.sandbox.control("POST", "/_sandbox/faults", { target: "GET /api/transactions/:id/status", kind: "status", status: 503, count: 3 })
    const res = await admin(s, "post", `/admin/pgs/orders/${orderId}/sync`)
    expect(res.status).toBe(200)
    expect(res.data.payments[0]).toMatchObject({ gateway: null, gateway_error: expect.any(String), in_sync: null })
    expect(res.data.payments[0].events.length).toBeGreaterThan(0)
    await s.sandbox.control("DELETE", "/_sandbox/faults")
  })

  it("answers 404 for an unknown order", async () => {
    expect((await admin(s, "get", "/admin/pgs/orders/order_unknown/gateway")).status).toBe(404)
  })

  it("lists a customer's saved cards and deletes one at the gateway", async () => {
    const { customerId, token, card } = await customerWithSavedCard(s)
    expect(card).toEqual({ id: expect.stringMatching(/^pgscard_/), brand: "VISA", masked: "400000******1000", last_4: "1000", exp_month: 7, exp_year: 2031 })

    const other = await s.registerCustomer()
    expect((await admin(s, "delete", `/admin/pgs/customers/${other.customer.id}/saved-cards/${card.id}`)).status).toBe(404)

    const res = await admin(s, "delete", `/admin/pgs/customers/${customerId}/saved-cards/${card.id}`)
    expect(res.status).toBe(200)
    expect(res.data).toEqual({ id: card.id, object: "saved_card", deleted: true })
    expect((await admin(s, "get", `/admin/pgs/customers/${customerId}/saved-cards`)).data.saved_cards).toEqual([])
    // Deleted at the gateway: the card can no longer pay.
    const pay = await authorizeCard(s.sandbox, { payment_method: { type: "saved_card", data: { payment_method_id: token, encrypted_cvv: s.sandbox.encrypt("123") } } })
    expect(pay.status).toBe(422)
    expect((await admin(s, "delete", `/admin/pgs/customers/${customerId}/saved-cards/${card.id}`)).status).toBe(404)
  })
})
