/**
 * A cart whose tax leaves a fraction of a cent: Medusa does not round its tax arithmetic (a 19 % VAT on 25.50 EUR is
 * a total of 30.345; medusajs/medusa#14818), the gateway takes whole cents. The shopper is charged what the
 * storefront shows (30.35), and Medusa's own capture and refund of its exact amount go through.
 */
import { BERLIN, taxGermany } from "../support/tax"
import { storeBody, type StoreSuite } from "../support/store"
import { operate } from "../support/capture"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { refundPaymentWorkflow } from "@medusajs/core-flows"
import { adminPayment, adminPost, approvedOperations, attachTransaction, payInFrame, paymentOfOrder } from "../support/checkout"
import { manageAtGateway, orderOfCart, processedEvent, waitFor } from "../support/webhooks"
import { capturedPayments, choose, startRedirect } from "../support/redirect"
import { editAddingItem, issueLink, openLink, owedByOrder, paidCollection, payOnHostedPage } from "../support/pay-link"
import { sessionFields } from "../../support/session-fields"
import { MINUTE, runReconcile } from "../support/attention"
import { unconfirmedOperationKey } from "../../../src/payments/lost-answers"
import { settleRefundsNotMadeOfOrder } from "../../../src/workflows/refund-not-made"
import { driftACent } from "../support/drift"

/** The provider's records of a payment's captures and refunds (its data), as stored. */
async function recordsOf(s: StoreSuite, paymentId: string): Promise<{ captures: any[]; refunds: any[] }> {
  const row = await s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)("payment").where({ id: paymentId }).first("data")
  return { captures: row.data?.captures ?? [], refunds: row.data?.refunds ?? [] }
}

/** A cart paid in the embedded fields and placed, the gateway asked `minor`: its order, payment and gateway transaction. */
async function payCart(s: StoreSuite, cart: { id: string }, minor: number) {
  const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
  expect(sessionFields(session.data).amount_minor).toBe(minor)
  const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
  expect((await attachTransaction(s, session.id, transactionId)).status).toBe(200)
  const done = await s.completeCart(cart.id)
  expect(done.data.type).toBe("order")
  expect((await processedEvent(s, transactionId)).outcome).toBe("applied:authorized")
  return { session, transactionId, orderId: done.data.order.id as string, payment: await paymentOfOrder(s, done.data.order.id) }
}

/** A taxed cart (30.345 EUR) paid and placed. */
const paidTaxedOrder = async (s: StoreSuite) => payCart(s, await s.createCart({ shipping_address: BERLIN }), 3035)

export default storeBody("a cart whose tax leaves a fraction of a cent", (s) => {
  // Before each test, not once: in a store shared with other behaviours the runner's snapshot is taken before this
  // describe's beforeAll, so the tax region is made again after each restore (and the other behaviours' carts stay untaxed).
  beforeEach(() => taxGermany(s))

  it("charges the total the storefront shows, rounded to the cent, and captures and refunds Medusa's exact amount", async () => {
    const cart = await s.createCart({ shipping_address: BERLIN })
    expect((await s.api.get(`/store/carts/${cart.id}?fields=total,tax_total`, { headers: s.storeHeaders })).data.cart).toMatchObject({ total: 30.345, tax_total: 4.845 })

    const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
    expect(session.amount).toBe(30.345)
    expect(sessionFields(session.data).amount_minor).toBe(3035)
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
    expect((await attachTransaction(s, session.id, transactionId)).status).toBe(200)
    const done = await s.completeCart(cart.id)
    expect(done.data.type).toBe("order")
    expect((await processedEvent(s, transactionId)).outcome).toBe("applied:authorized")
    const payment = await paymentOfOrder(s, done.data.order.id)
    expect(payment.amount).toBe(30.345)

    // Through the admin extension's guard (the amount the shop admin saw captured so far), as its buttons send it.
    expect((await operate(s, payment.id, "capture", 30.345, 0)).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "CAPTURE")).map((o) => o.amount)).toEqual([3035])
    expect((await adminPayment(s, payment.id)).captures.map((c: any) => c.amount)).toEqual([30.345])

    // A part with Medusa's fraction (20.345 → 20.35 at the gateway), then the rest, the guard summing the first.
    expect((await operate(s, payment.id, "refund", 20.345, 0)).status).toBe(200)
    expect((await operate(s, payment.id, "refund", 10, 2035)).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([2035, 1000])
    expect((await adminPayment(s, payment.id)).refunds.map((r: any) => r.amount).sort((a: number, b: number) => a - b)).toEqual([10, 20.345])

    // The admin's view shows Medusa's amounts as the gateway holds them, and the exact rests its buttons send.
    const view = await s.api.get(`/admin/pgs/orders/${done.data.order.id}/gateway`, { headers: await s.adminHeaders() })
    expect(view.data.payments[0]).toMatchObject({
      medusa: { state: "refunded", amount: "30.35", captured_amount: "30.35", refunded_amount: "30.35", rest_to_capture: "0", rest_to_refund: "0" },
      gateway: { amount: 3035 },
    })
  })

  it("records the whole of a taxed payment captured and refunded in the gateway's dashboard at Medusa's exact amount", async () => {
    const { session, transactionId, payment } = await paidTaxedOrder(s)
    const captureId = await manageAtGateway(s, session, transactionId, "CAPTURE", 3035)
    expect((await processedEvent(s, captureId)).outcome).toBe("applied:external_capture")
    const refundId = await manageAtGateway(s, session, transactionId, "REFUND", 3035)
    expect((await processedEvent(s, refundId)).outcome).toBe("applied:external_refund")
    const recorded = await adminPayment(s, payment.id)
    expect({ captures: recorded.captures.map((c: any) => c.amount), refunds: recorded.refunds.map((r: any) => r.amount) }).toEqual({ captures: [30.345], refunds: [30.345] })
  })

  it("records a part captured in the gateway's dashboard as the gateway's whole cents, and the rest at what Medusa has left", async () => {
    const { session, transactionId, payment } = await paidTaxedOrder(s)
    const first = await manageAtGateway(s, session, transactionId, "CAPTURE", 1000)
    expect((await processedEvent(s, first)).outcome).toBe("applied:external_capture")
    const rest = await manageAtGateway(s, session, transactionId, "CAPTURE", 2035)
    expect((await processedEvent(s, rest)).outcome).toBe("applied:external_capture")
    const recorded = await adminPayment(s, payment.id)
    expect(recorded.captures.map((c: any) => c.amount).sort((a: number, b: number) => a - b)).toEqual([10, 20.345])
    expect(recorded.captured_at).not.toBeNull()
    // The provider's records hold what the gateway took for each (later shares count them), as for its own captures.
    expect((await recordsOf(s, payment.id)).captures.map((r: any) => [r.kind, r.amount_minor])).toEqual([["external", 1000], ["external", 2035]])
  })

  it("places a taxed redirect order from the gateway's approval alone, captured at Medusa's exact amount", async () => {
    const r = await startRedirect(s, "pgs-wallets", { currency: "eur", cart: { shipping_address: BERLIN } })
    expect(sessionFields(r.session.data).amount_minor).toBe(3035)
    await choose(r.url, "approve")
    // The shopper has not come back: the webhook places the order and records the money taken in one step.
    const orderId = await waitFor(() => orderOfCart(s, r.cartId), { what: `order of ${r.cartId}` })
    const [captured] = await capturedPayments(s, orderId)
    expect(captured.amount).toBe(30.345)
    expect(captured.captures.map((c: any) => c.amount)).toEqual([30.345])
  })

  it("lists what a canceled taxed order still holds when the cancel's refund failed, in the gateway's cents", async () => {
    const { session, transactionId, orderId, payment } = await paidTaxedOrder(s)
    expect((await operate(s, payment.id, "capture", 30.345, 0)).status).toBe(200)
    // 5.00 refunded in the gateway's dashboard, its message held: the cancel's refund of all 30.345 is then refused.
    await s.sandbox.control("POST", "/_sandbox/settings", { webhooks_held: true })
    try {
      await manageAtGateway(s, session, transactionId, "REFUND", 500)
      expect((await adminPost(s, `/admin/orders/${orderId}/cancel`, {})).status).toBe(200)
      const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const item = await waitFor(() => knex("pgs_follow_up").where({ key: `cancel-refund:${payment.id}` }).first("state", "amount_minor", "note"), { what: "the refund not made" })
      expect(item).toMatchObject({ state: "needs_person", amount_minor: "3035", note: expect.stringMatching(/still held 30\.35 EUR captured/) })
    } finally {
      await s.sandbox.control("POST", "/_sandbox/settings", { webhooks_held: false })
    }
  })

  it("asks a taxed order edit's fraction of a cent as the storefront shows it, and records the link's payment at Medusa's exact amount", async () => {
    const { orderId, payment } = await paidTaxedOrder(s)
    expect((await operate(s, payment.id, "capture", 30.345, 0)).status).toBe(200)
    await editAddingItem(s, orderId)
    const { owed } = await owedByOrder(s, orderId)
    // What the link will charge, as the shop admin and the shopper see it.
    expect(owed).toEqual([expect.objectContaining({ amount: "30.35", currency_code: "eur" })])
    const link = await issueLink(s, orderId, owed[0].payment_collection_id)
    const opened = await openLink(link.url.replace(/^https?:\/\/[^/]+/, s.medusaUrl))
    expect(opened.status).toBe(303)
    const pageId = /\/hpp\/([^/?]+)$/.exec(opened.location!)![1]
    expect(s.sandbox.sandbox.context.store.hostedPages.get(pageId)).toMatchObject({ amount: 3035, currency: "EUR" })
    await payOnHostedPage(opened.location!, s.sandbox.testCard("frictionless_approved"))
    const { payments } = await paidCollection(s, orderId, owed[0].payment_collection_id)
    expect(payments[0].amount).toBe(30.345)
    if (!payments[0].captured_at) expect((await adminPost(s, `/admin/payments/${payments[0].id}/capture`)).status).toBe(200)
    expect(await owedByOrder(s, orderId)).toMatchObject({ pendingDifference: 0, owed: [] })
  })

  it("charges a discounted taxed cart what the storefront shows, and refunds it in parts that add up at the gateway", async () => {
    // A shop's first sale: 10 % off three items, then 19 % VAT on what is left. Medusa: 76.50 − 7.65 = 68.85, + 13.0815.
    const code = `TENOFF${Date.now()}`
    const created = await adminPost(s, "/admin/promotions", {
      code, type: "standard", status: "active",
      application_method: { type: "percentage", target_type: "items", allocation: "across", value: 10, currency_code: "eur" },
    })
    expect(created.data).toMatchObject({ promotion: { code } })
    const cart = await s.createCart({ shipping_address: BERLIN, quantity: 3 })
    const discounted = await s.api.post(`/store/carts/${cart.id}/promotions`, { promo_codes: [code] }, { headers: s.storeHeaders })
    expect(discounted.data.cart).toMatchObject({ discount_subtotal: 7.65, total: 81.9315 })

    const { transactionId, payment } = await payCart(s, cart, 8193)

    // Medusa's own routes, as its dashboard calls them: the whole capture, then two refunds whose halves each round
    // up alone (40.97 + 40.97, a cent more than the gateway took): sent as 40.97 and 40.96.
    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, {})).status).toBe(200)
    expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 40.965 })).status).toBe(200)
    expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 40.9665 })).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "CAPTURE")).map((o) => o.amount)).toEqual([8193])
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([4097, 4096])
    const recorded = await adminPayment(s, payment.id)
    expect({ captured: recorded.captures.map((c: any) => c.amount), refunded: recorded.refunds.map((r: any) => r.amount).sort((a: number, b: number) => a - b) })
      .toEqual({ captured: [81.9315], refunded: [40.965, 40.9665] })
  })

  it("charges a price that includes its tax as the shop wrote it, and captures and refunds it whole", async () => {
    // Most EU shops write prices with VAT in them: Medusa takes the 19 % out of 25.50 (21.4285…) and adds it back.
    // (The seeded prices are per currency, so the currency's preference decides; put back after the test.)
    const pricing = s.container().resolve(Modules.PRICING) as any
    const [before] = await pricing.listPricePreferences({ attribute: "currency_code", value: "eur" })
    await pricing.upsertPricePreferences([{ ...(before ? { id: before.id } : {}), attribute: "currency_code", value: "eur", is_tax_inclusive: true }])
    try {
      await payTaxInclusiveCart()
    } finally {
      if (before) await pricing.upsertPricePreferences([{ id: before.id, attribute: "currency_code", value: "eur", is_tax_inclusive: before.is_tax_inclusive }])
      else await pricing.deletePricePreferences((await pricing.listPricePreferences({ attribute: "currency_code", value: "eur" })).map((p: any) => p.id))
    }
  })

  async function payTaxInclusiveCart() {
    const cart = await s.createCart({ shipping_address: BERLIN })
    const totals = (await s.api.get(`/store/carts/${cart.id}?fields=total,tax_total`, { headers: s.storeHeaders })).data.cart
    expect(totals.tax_total).toBeGreaterThan(4.07)
    expect(totals.tax_total).toBeLessThan(4.08)
    const { transactionId, orderId, payment } = await payCart(s, cart, 2550)
    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, {})).status).toBe(200)
    expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, {})).status).toBe(200)
    expect({
      captured: (await approvedOperations(s.sandbox, transactionId, "CAPTURE")).map((o) => o.amount),
      refunded: (await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount),
    }).toEqual({ captured: [2550], refunded: [2550] })
    const view = (await s.api.get(`/admin/pgs/orders/${orderId}/gateway`, { headers: await s.adminHeaders() })).data.payments[0]
    expect(view.medusa).toMatchObject({ state: "refunded", amount: "25.50", rest_to_refund: "0" })
  }

  it("records a refund of a fraction of a cent that the refund before it already sent, without asking the gateway", async () => {
    const { transactionId, payment, orderId } = await paidTaxedOrder(s)
    expect((await operate(s, payment.id, "capture", 30.345, 0)).status).toBe(200)
    // 7.7451 is sent as 7.75; 0.0018 more makes 7.7469, still 7.75: its share is nothing, which the gateway would refuse.
    expect((await operate(s, payment.id, "refund", 7.7451)).status).toBe(200)
    expect((await operate(s, payment.id, "refund", 0.0018)).status).toBe(200)
    expect((await operate(s, payment.id, "refund", 22.5981)).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([775, 2260])
    expect((await adminPayment(s, payment.id)).refunds.map((r: any) => r.amount).sort((a: number, b: number) => a - b)).toEqual([0.0018, 7.7451, 22.5981])
    const view = (await s.api.get(`/admin/pgs/orders/${orderId}/gateway`, { headers: await s.adminHeaders() })).data.payments[0]
    expect(view.medusa).toMatchObject({ state: "refunded", rest_to_refund: "0" })
    expect(view.operations.filter((o: any) => o.kind === "refund").map((o: any) => [o.amount, o.nothing_sent])).toEqual([["7.75", false], ["0.00", true], ["22.60", false]])
    expect((await recordsOf(s, payment.id)).refunds.map((r: any) => [r.kind, r.amount_minor, r.transaction_id === null])).toEqual([
      ["applied", 775, false],
      ["nothing_sent", 0, true],
      ["applied", 2260, false],
    ])
  })

  it("lists a refund of nothing whose process stopped before Medusa finished it, for a person to remove", async () => {
    const { payment } = await paidTaxedOrder(s)
    expect((await operate(s, payment.id, "capture", 30.345, 0)).status).toBe(200)
    expect((await operate(s, payment.id, "refund", 7.7451)).status).toBe(200)
    // A refund row of 0.0018 (nothing to send after 7.7451) whose process died before Medusa's workflow finished:
    // no order transaction, no record. Writing the record alone would leave the order's books short of the row.
    const payments = s.container().resolve(Modules.PAYMENT) as unknown as { createRefunds(data: object[]): Promise<Array<{ id: string }>> }
    const [row] = await payments.createRefunds([{ payment_id: payment.id, amount: 0.0018, note: "process died" }])
    await runReconcile(s, 10 * MINUTE)
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const item = await knex("pgs_follow_up").where({ key: unconfirmedOperationKey("refund", row.id) }).first("state", "amount_minor", "note")
    expect(item).toMatchObject({ state: "needs_person", amount_minor: "0", note: expect.stringMatching(/refund of 0\.0018 EUR .*fraction of a cent .*no money moved for it\. .*choose Remove from the order here/) })
  })

  it("records a capture that rounds to nothing without asking the gateway, and sends the last cent as the final capture", async () => {
    const { transactionId, payment } = await paidTaxedOrder(s)
    // 30.3351 is sent as 30.34; 0.0048 more makes 30.3399, still 30.34; the last 0.0051 reaches 30.345, so 30.35.
    expect((await operate(s, payment.id, "capture", 30.3351)).status).toBe(200)
    expect((await operate(s, payment.id, "capture", 0.0048)).status).toBe(200)
    expect((await operate(s, payment.id, "capture", 0.0051)).status).toBe(200)
    const captures = await approvedOperations(s.sandbox, transactionId, "CAPTURE")
    expect(captures.map((o) => o.amount)).toEqual([3034, 1])
    expect((await recordsOf(s, payment.id)).captures.map((r: any) => [r.kind, r.amount_minor, r.final_capture ?? false])).toEqual([
      ["applied", 3034, false],
      ["nothing_sent", 0, false],
      ["applied", 1, true],
    ])
    expect((await adminPayment(s, payment.id)).captured_at).not.toBeNull()
  })

  /**
   * A captured taxed payment whose refunds drifted a cent: 20.00 refunded in the gateway's dashboard (Medusa not yet
   * told), a refund of 15.1745 (15.17) held on its way while a workflow's refund of 5.0045 is sent as its share after
   * it (20.179 → 20.18, so 5.01), then the first declined (the gateway has less left) and its row deleted. Medusa's
   * records: 5.0045 and 20.00, rest 5.3405; the gateway holds 5.34 (3035 − 2000 − 501).
   */
  async function driftedRefunds() {
    const paid = await paidTaxedOrder(s)
    const { session, transactionId, payment } = paid
    expect((await operate(s, payment.id, "capture", 30.345, 0)).status).toBe(200)
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const dashboardRefund = await driftACent(s, {
      session,
      transactionId,
      dashboard: { type: "REFUND", amountMinor: 2000 },
      held: () => operate(s, payment.id, "refund", 15.1745),
      beside: async () => {
        expect(await knex("refund").where({ payment_id: payment.id }).whereNull("deleted_at").count("id as n").first()).toEqual({ n: "1" })
        // The dashboard's refunds of a payment take turns (one-operation.ts); a workflow's (an order's cancel, a
        // store's own) do not: this one runs meanwhile.
        await refundPaymentWorkflow(s.container()).run({ input: { payment_id: payment.id, amount: 5.0045 } })
      },
    })
    expect((await processedEvent(s, dashboardRefund)).outcome).toBe("applied:external_refund")
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([2000, 501])
    const medusa = (await s.api.get(`/admin/pgs/orders/${paid.orderId}/gateway`, { headers: await s.adminHeaders() })).data.payments[0].medusa
    // Medusa's rest; the widget's limit is what the gateway has left (Medusa's sums rounded would say 5.35).
    expect(medusa).toMatchObject({ rest_to_refund: "5.3405", refunded_amount: "25.00", left_to_refund: "5.34" })
    const refundRows = async () => (await knex("refund").where({ payment_id: payment.id }).whereNull("deleted_at").select("amount")).map((r: any) => Number(r.amount)).sort((a: number, b: number) => a - b)
    return { ...paid, refundRows }
  }

  it("sends the cent a declined refund's fraction left behind when another refund was sent while it was in flight", async () => {
    const { transactionId, payment, refundRows } = await driftedRefunds()
    // Counting the second refund as 5.00 (its amount alone) would send 5.35, which the gateway refuses.
    expect((await operate(s, payment.id, "refund", 5.3405)).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([2000, 501, 534])
    expect(await refundRows()).toEqual([5.0045, 5.3405, 20])
  })

  it("lists on Needs attention, in words, that the gateway refunded a cent more than Medusa's refunds round to, and sends nothing for a refund below it", async () => {
    const { orderId, transactionId, payment } = await driftedRefunds()
    // Medusa's refunds add up to 25.0045 (25.00); the gateway was sent 25.01. A refund of 0.0001 takes them to 25.0046:
    // still 25.00, a cent below what the gateway was sent, so its share is below nothing.
    expect((await operate(s, payment.id, "refund", 0.0001)).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([2000, 501])
    const items = ((await s.api.get("/admin/pgs/attention?show=open&limit=100", { headers: await s.adminHeaders() })).data.items as any[]).filter((i) => i.transaction_id === transactionId)
    expect(items).toEqual([
      expect.objectContaining({
        kind: "amount_drift",
        title: "Amounts differ from the gateway",
        needs_person: true,
        order_id: orderId,
        amount: "0.01",
        currency_code: "eur",
        actions: ["resolve"],
        sentence: expect.stringMatching(/^The gateway refunded 0\.01 EUR more of this payment than Medusa's refunds of it add up to, rounded to the cent: the order shows the customer 0\.01 EUR less refunded than they got back\./),
      }),
    ])
  })

  it("records what the gateway had left, refunded in its dashboard after a drift, as Medusa's exact rest", async () => {
    const { session, transactionId, payment, refundRows } = await driftedRefunds()
    const rest = await manageAtGateway(s, session, transactionId, "REFUND", 534)
    expect((await processedEvent(s, rest)).outcome).toBe("applied:external_refund")
    // Not 5.34 (its whole cents): the order would then show 0.0005 EUR still to refund, which nobody can.
    expect(await refundRows()).toEqual([5.0045, 5.3405, 20])
    expect((await adminPayment(s, payment.id)).refunds.length).toBe(3)
  })

  it("refunds what a canceled order's payment has left after a drift, in the gateway's last cents", async () => {
    const { orderId, transactionId, payment, refundRows } = await driftedRefunds()
    // Medusa's cancel refunds its rest, 5.3405: sent as its share after what the gateway was sent before it, 5.34.
    // Counted from Medusa's rows alone (30.345 less 25.0045, each rounded: 30.35 − 25.00) it would be 5.35, more than
    // the gateway has left.
    expect((await adminPost(s, `/admin/orders/${orderId}/cancel`, {})).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([2000, 501, 534])
    expect(await refundRows()).toEqual([5.0045, 5.3405, 20])
    // What the order.canceled subscriber runs, run here to its end: nothing kept, nothing listed.
    await settleRefundsNotMadeOfOrder(s.container(), orderId)
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    expect(await knex("pgs_follow_up").where({ key: `cancel-refund:${payment.id}` }).first("id")).toBeUndefined()
  })

  it("lists what a canceled order's payment holds after a drift, when the cancel's refund failed, in the gateway's cents", async () => {
    const { orderId, payment } = await driftedRefunds()
    await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/manage", kind: "status", status: 503, phase: "before", count: 10 })
    try {
      expect((await adminPost(s, `/admin/orders/${orderId}/cancel`, {})).status).toBe(200)
      const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const item = await waitFor(() => knex("pgs_follow_up").where({ key: `cancel-refund:${payment.id}` }).first("state", "amount_minor", "note"), { what: "the refund not made" })
      // The gateway holds 30.35 − 20.00 − 5.01. Counting Medusa's rows rounded one by one (5.0045 as 5.00) would say 5.35.
      expect(item).toMatchObject({ state: "needs_person", amount_minor: "534", note: expect.stringMatching(/still held 5\.34 EUR captured/) })
    } finally {
      await s.sandbox.control("DELETE", "/_sandbox/faults")
    }
  })

  it("refunds a taxed payment in parts that add up to what the gateway took, whatever their fractions", async () => {
    const { transactionId, payment, orderId } = await paidTaxedOrder(s)
    expect((await operate(s, payment.id, "capture", 30.345, 0)).status).toBe(200)
    const view = async () => (await s.api.get(`/admin/pgs/orders/${orderId}/gateway`, { headers: await s.adminHeaders() })).data.payments[0].medusa
    expect(await view()).toMatchObject({ captured_amount: "30.35", rest_to_refund: "30.345" })
    // Three returns of one taxed third each (10.115): alone each would round to 10.12, a cent more than was taken.
    expect((await operate(s, payment.id, "refund", 10.115, 0)).status).toBe(200)
    expect((await operate(s, payment.id, "refund", 10.115, 1012)).status).toBe(200)
    expect(await view()).toMatchObject({ refunded_amount: "20.23", rest_to_refund: "10.115" })
    expect((await operate(s, payment.id, "refund", 10.115, 2023)).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([1012, 1011, 1012])
    expect((await adminPayment(s, payment.id)).refunds.map((r: any) => r.amount)).toEqual([10.115, 10.115, 10.115])
    expect(await view()).toMatchObject({ state: "refunded", rest_to_refund: "0" })
    // The widget's list shows what the gateway was sent for each.
    const listed = (await s.api.get(`/admin/pgs/orders/${orderId}/gateway`, { headers: await s.adminHeaders() })).data.payments[0].operations
    expect(listed.filter((o: any) => o.kind === "refund").map((o: any) => o.amount)).toEqual(["10.12", "10.11", "10.12"])
  })
})
