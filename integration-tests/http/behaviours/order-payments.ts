/**
 * Money after checkout (issue 24): an order edit makes an order owe more, Medusa gives it a new payment collection,
 * and a payer without a cart pays it through our store routes — by card in the embedded fields, recorded through
 * Medusa's own workflows by the route and the webhook, whichever comes first, once.
 */
import { approvedOperations, attachTransaction, ledger, minor, payInFrame } from "../support/checkout"
import { storeBody } from "../support/store"
import { eventRows, processedEvent, waitFor } from "../support/webhooks"
import { adminOrder, applyPayment, collectionSession, collectionSummary, editAddingItem, openCollection, orderOwingMore } from "../support/order-payments"
import { walletPayment } from "../support/checkout-direct"
import { clientInfo, sessionRow } from "../support/redirect"
import { BROWSER_INFO } from "../../support/sandbox"
import { sessionFields } from "../../support/session-fields"

export default storeBody("money after checkout: paying an order's payment collection", (s) => {
  it("pays what an order edit added by card; the route and the webhook record it once; store and admin agree nothing is owed", async () => {
    const { orderId, collectionId, firstTransactionId } = await orderOwingMore(s)
    const before = await adminOrder(s, orderId)
    // The first payment was only authorized: Medusa canceled it (a VOID at the gateway) and asks for the whole total.
    expect((await ledger(s.sandbox)).filter((e) => e.parent_id === firstTransactionId && e.transaction_type === "VOID" && e.status === "APPROVED")).toHaveLength(1)
    expect(before.summary.pending_difference).toBeGreaterThan(0)

    const summary = await collectionSummary(s, collectionId, `?order_id=${orderId}`)
    expect(summary.status).toBe(200)
    expect(summary.data.payment_collection).toMatchObject({ id: collectionId, payable: true, reason: null, order: { display_id: before.display_id } })
    // Never the order's id: Medusa's GET /store/orders/{id} would show its holder the customer's personal data.
    expect(JSON.stringify(summary.data)).not.toContain(orderId)
    expect(Number(summary.data.payment_collection.owed)).toBe(before.summary.pending_difference)
    expect(summary.data.payment_methods.map((m: any) => m.provider_id)).toContain("pp_pgs_pgs")
    expect(summary.data.saved_cards).toBe(false)
    // The link holder sees the amount and the display id, never the order's payer.
    expect(JSON.stringify(summary.data)).not.toMatch(/@example\.com|Lovelace|Analytical/)

    const started = await collectionSession(s, collectionId, { provider_id: "pp_pgs_pgs" })
    expect(started.status).toBe(200)
    const session = started.data.payment_session
    expect(session.data.integration).toBe("embedded_fields")
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
    expect((await attachTransaction(s, session.id, transactionId)).status).toBe(200)

    // The shopper's route twice at once, and the gateway's webhook on its own time.
    const [a, b] = await Promise.all([applyPayment(s, collectionId, session.id), applyPayment(s, collectionId, session.id)])
    for (const r of [a, b]) {
      expect(r.status).toBe(200)
      expect(r.data.status).toBe("applied")
      expect(r.data.payment_collection).toMatchObject({ owed_minor: 0, payable: false, reason: "paid" })
    }
    const event = await processedEvent(s, transactionId)
    expect(event.error).toBeNull()
    expect(["ignored:already_applied", "applied:collection_authorized"]).toContain(event.outcome)

    const after = await adminOrder(s, orderId)
    const paid = after.payment_collections.find((c: any) => c.id === collectionId)
    expect(paid.status).toBe("authorized")
    expect(paid.payments).toHaveLength(1)
    expect(paid.payments[0].data.transaction_id).toBe(transactionId)
    expect(after.payment_status).toBe("authorized")

    // Paid: the page says so, and no second payment can start.
    const again = await collectionSummary(s, collectionId)
    expect(again.data.payment_collection).toMatchObject({ payable: false, reason: "paid" })
    expect(again.data.payment_methods).toEqual([])
    const refused = await collectionSession(s, collectionId, { provider_id: "pp_pgs_pgs" })
    expect(refused.status).toBe(409)
    expect(refused.data).toMatchObject({ type: "not_payable", reason: "paid" })

    // The dashboard captures it as any authorized payment; then Medusa counts it paid (order transactions).
    const capture = await s.api.post(`/admin/payments/${paid.payments[0].id}/capture`, {}, { headers: await s.adminHeaders(), validateStatus: () => true })
    expect(capture.status).toBe(200)
    const captured = await adminOrder(s, orderId)
    expect(captured.summary.pending_difference).toBe(0)
    expect(captured.payment_status).toBe("captured")
    const store = await s.api.get(`/store/orders/${orderId}?fields=id,summary,payment_status`, { headers: s.storeHeaders })
    expect(store.data.order.summary.pending_difference).toBe(0)
    expect((await approvedOperations(s.sandbox, transactionId, "CAPTURE")).map((e) => e.amount)).toEqual([minor(before.summary.pending_difference)])
  })

  it("answers unknown, malformed and another order's collections 404 without saying which, and a cart's collection 409", async () => {
    const { orderId, collectionId } = await orderOwingMore(s)
    const ids = ["pay_col_01JZZZZZZZZZZZZZZZZZZZZZZZ", "nope", "pay_col_" + "x".repeat(300), "%00", "pay_col_ü"]
    for (const id of ids) {
      const res = await collectionSummary(s, encodeURIComponent(id))
      expect([400, 404]).toContain(res.status)
      if (res.status === 404) expect(res.data).toEqual({ type: "not_found", message: expect.any(String) })
    }
    const wrongOrder = await collectionSummary(s, collectionId, "?order_id=order_01JZZZZZZZZZZZZZZZZZZZZZZZ")
    expect(wrongOrder.status).toBe(404)
    expect(wrongOrder.data).toEqual((await collectionSummary(s, "pay_col_01JZZZZZZZZZZZZZZZZZZZZZZZ")).data)
    expect((await collectionSummary(s, collectionId, "?order_id=../../etc")).status).toBe(404)
    // The session route reads the link's order the same way (the widget asks for the card's session beside the
    // collection): none is made on another order's collection.
    const sessionFor = (query: string) =>
      s.api.post(`/store/pgs/payment-collections/${collectionId}/payment-sessions${query}`, { provider_id: "pp_pgs_pgs" }, { headers: s.storeHeaders, validateStatus: () => true })
    for (const query of ["?order_id=order_01JZZZZZZZZZZZZZZZZZZZZZZZ", "?order_id=../../etc"]) {
      const res = await sessionFor(query)
      expect({ query, status: res.status, body: res.data }).toEqual({ query, status: 404, body: wrongOrder.data })
    }
    expect((await sessionFor(`?order_id=${orderId}`)).status).toBe(200)
    for (const body of [{}, { provider_id: "pp_system_default" }, { provider_id: "x".repeat(5000) }, { provider_id: "pp_pgs_pgs", data: { a: { b: { c: { d: "\u0000" } } } } }]) {
      const res = await collectionSession(s, collectionId, body)
      expect(res.status).toBeGreaterThanOrEqual(400)
      expect(res.status).toBeLessThan(500)
    }
    expect((await applyPayment(s, collectionId, "payses_01JZZZZZZZZZZZZZZZZZZZZZZZ")).status).toBe(404)
    expect((await applyPayment(s, collectionId, "nope")).status).toBe(400)

    const order = await adminOrder(s, orderId)
    const cartCollection = order.payment_collections.find((c: any) => c.id !== collectionId)
    const cartBound = await collectionSummary(s, cartCollection.id)
    expect(cartBound.status).toBe(409)
    expect(cartBound.data).toMatchObject({ type: "not_payable", reason: expect.stringMatching(/cart_bound|collection_canceled/) })
  })

  it("takes a redirect payer's fields from the order when the collection has no cart", async () => {
    const { collectionId } = await orderOwingMore(s)
    const started = await collectionSession(s, collectionId, { provider_id: "pp_pgs-open-banking_pgs" })
    expect(started.status).toBe(200)
    const info = await clientInfo(s, started.data.payment_session.id, { browser_info: BROWSER_INFO })
    expect(info.status).toBe(200)
    const applied = await applyPayment(s, collectionId, started.data.payment_session.id)
    expect(applied.status).toBe(200)
    expect(applied.data.status).toBe("requires_more")
    expect(applied.data.payment_session.data.next_action).toMatchObject({ type: "redirect", url: expect.any(String) })
    const row = await sessionRow(s, started.data.payment_session.id)
    const tx = (await s.sandbox.control("GET", `/_sandbox/transactions/${row.data.transaction_id}`)).body
    expect(JSON.stringify(tx)).toMatch(/Lovelace/)
  })

  it("records a PURCHASE terminal's payment captured once, however often it is applied", async () => {
    await s.container().resolve<any>("pgs").createPgsTerminalSettings({
      terminal_id: "SBX-CARDS-01",
      currency_codes: ["eur"],
      region_ids: [],
      transaction_type: "PURCHASE",
      integration_type: "EMBEDDED_FIELDS",
    })
    const { orderId, collectionId } = await orderOwingMore(s)
    const session = (await collectionSession(s, collectionId, { provider_id: "pp_pgs_pgs" })).data.payment_session
    expect(sessionFields(session.data).transaction_type).toBe("PURCHASE")
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
    await attachTransaction(s, session.id, transactionId)
    const results = await Promise.all([1, 2, 3].map(() => applyPayment(s, collectionId, session.id)))
    for (const r of results) expect(r.data.status).toBe("applied")
    await processedEvent(s, transactionId)
    const after = await adminOrder(s, orderId)
    const paid = after.payment_collections.find((c: any) => c.id === collectionId)
    expect(paid.status).toBe("completed")
    expect(paid.payments).toHaveLength(1)
    expect(paid.payments[0].captures).toHaveLength(1)
    expect(after.summary.pending_difference).toBe(0)
    expect(after.payment_status).toBe("captured")
    const store = await s.api.get(`/store/orders/${orderId}?fields=id,summary`, { headers: s.storeHeaders })
    expect(store.data.order.summary.pending_difference).toBe(0)
    expect((await ledger(s.sandbox)).filter((e) => e.parent_id === transactionId && e.transaction_type === "CAPTURE")).toHaveLength(0)
    expect((await eventRows(s, { subject_id: transactionId })).every((e) => !e.error)).toBe(true)
  })

  it("offers saved cards only to the customer who owns the order, and pays with one", async () => {
    const owner = await s.registerCustomer()
    const cart = await s.createCart({ customerToken: owner.token })
    await s.initiatePaymentSession(cart.id, "pp_pgs_pgs", { payment_method: walletPayment(s.sandbox.testCard("frictionless_approved")), browser_info: BROWSER_INFO, save_card: true }, owner.token)
    const done = await s.completeCart(cart.id, owner.token)
    expect(done.data.type).toBe("order")
    const orderId = done.data.order.id
    const payment = s.container().resolve<any>("payment")
    const [card] = await waitFor(async () => {
      const list = await payment.listPaymentMethods({ provider_id: "pp_pgs_pgs", context: { customer: { id: owner.customer.id } } })
      return list.length ? list : null
    }, { what: "the owner's saved card" })
    await editAddingItem(s, orderId)
    const collectionId = (await openCollection(s, orderId)).id
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` })

    expect((await collectionSummary(s, collectionId, "", bearer(owner.token))).data.saved_cards).toBe(true)
    const stranger = await s.registerCustomer()
    const theirs = await collectionSummary(s, collectionId, "", bearer(stranger.token))
    expect(theirs.data.saved_cards).toBe(false)
    expect(JSON.stringify(theirs.data)).not.toContain(owner.email)
    expect((await collectionSummary(s, collectionId)).data.saved_cards).toBe(false)

    const savedCard = { provider_id: "pp_pgs_pgs", data: { payment_method: { type: "saved_card", saved_card_id: card.id }, browser_info: BROWSER_INFO } }
    const stolen = await collectionSession(s, collectionId, savedCard, bearer(stranger.token))
    expect(stolen.status).toBeGreaterThanOrEqual(400)
    expect(stolen.status).toBeLessThan(500)

    const started = await collectionSession(s, collectionId, savedCard, bearer(owner.token))
    expect(started.status).toBe(200)
    const applied = await applyPayment(s, collectionId, started.data.payment_session.id, bearer(owner.token))
    expect(applied.status).toBe(200)
    expect(applied.data.status).toBe("applied")
    const after = (await adminOrder(s, orderId)).payment_collections.find((c: any) => c.id === collectionId)
    expect(after.status).toBe("authorized")
    expect(after.payments).toHaveLength(1)
  })

  it("gives back money paid for a collection that another payment already settled", async () => {
    const { orderId, collectionId } = await orderOwingMore(s)
    const first = (await collectionSession(s, collectionId, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const paidFirst = await payInFrame(s.sandbox, first, s.sandbox.testCard("frictionless_approved"))
    await attachTransaction(s, first.id, paidFirst.transactionId)
    expect((await applyPayment(s, collectionId, first.id)).data.status).toBe("applied")

    // A second payment started around our routes (Medusa's own session route does not ask whether anything is owed).
    const created = await s.api.post(`/store/payment-collections/${collectionId}/payment-sessions`, { provider_id: "pp_pgs_pgs" }, { headers: s.storeHeaders })
    const second = created.data.payment_collection.payment_sessions.find((p: any) => p.provider_id === "pp_pgs_pgs")
    const paidSecond = await payInFrame(s.sandbox, second, s.sandbox.testCard("frictionless_approved"))
    await attachTransaction(s, second.id, paidSecond.transactionId)
    const refused = await applyPayment(s, collectionId, second.id)
    expect(refused.status).toBe(409)
    expect(refused.data.reason).toBe("paid")
    const event = await processedEvent(s, paidSecond.transactionId)
    expect(event.outcome).toMatch(/late|void|refund|given/i)
    const voids = await approvedOperations(s.sandbox, paidSecond.transactionId, "VOID")
    expect(voids).toHaveLength(1)
    const collection = (await adminOrder(s, orderId)).payment_collections.find((c: any) => c.id === collectionId)
    expect(collection.payments).toHaveLength(1)
    expect(collection.payments[0].data.transaction_id).toBe(paidFirst.transactionId)
  })

  it("records the payment from the webhook alone when the payer never comes back, and the route then finds it applied", async () => {
    const { orderId, collectionId } = await orderOwingMore(s)
    const session = (await collectionSession(s, collectionId, { provider_id: "pp_pgs_pgs" })).data.payment_session
    // Paid in the frame; the browser closed before telling our routes anything.
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
    const event = await processedEvent(s, transactionId)
    expect(event.outcome).toBe("applied:collection_authorized")
    const collection = (await adminOrder(s, orderId)).payment_collections.find((c: any) => c.id === collectionId)
    expect(collection.status).toBe("authorized")
    expect(collection.payments).toHaveLength(1)
    const late = await applyPayment(s, collectionId, session.id)
    expect(late.status).toBe(200)
    expect(late.data.status).toBe("applied")
    expect((await adminOrder(s, orderId)).payment_collections.find((c: any) => c.id === collectionId).payments).toHaveLength(1)
  })
})
