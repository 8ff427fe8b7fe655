/**
 * A cart whose tax leaves a fraction of a cent: Medusa does not round its tax arithmetic (a 19 % VAT on 25.50 EUR is
 * a total of 30.345; medusajs/medusa#14818), the gateway takes whole cents. The shopper is charged what the
 * storefront shows (30.35), and Medusa's own capture and refund of its exact amount go through.
 */
import { createTaxRegionsWorkflow } from "@medusajs/core-flows"
import { pgsStoreSuite } from "./support/store"
import { operate } from "./support/capture"
import { adminPayment, approvedOperations, attachTransaction, payInFrame, paymentOfOrder } from "./support/checkout"
import { processedEvent } from "./support/webhooks"
import { sessionFields } from "../support/session-fields"

pgsStoreSuite("a cart whose tax leaves a fraction of a cent", (s) => {
  beforeAll(async () => {
    await createTaxRegionsWorkflow(s.container()).run({ input: [{ country_code: "de", provider_id: "tp_system", default_tax_rate: { rate: 19, code: "VAT", name: "VAT" } }] as any })
  })

  it("charges the total the storefront shows, rounded to the cent, and captures and refunds Medusa's exact amount", async () => {
    const cart = await s.createCart()
    const shipping_address = { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical St", city: "Berlin", country_code: "de", postal_code: "10115" }
    await s.api.post(`/store/carts/${cart.id}`, { shipping_address }, { headers: s.storeHeaders })
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
    expect((await adminPayment(s, payment.id)).refunds.map((r: any) => r.amount).sort()).toEqual([10, 20.345])

    // The admin's view of the order reads the same amounts without failing on the fraction.
    const view = await s.api.get(`/admin/pgs/orders/${done.data.order.id}/gateway`, { headers: await s.adminHeaders() })
    expect(view.data.payments[0]).toMatchObject({ medusa: { state: "refunded", amount: "30.345" }, gateway: { amount: 3035 } })
  })
})
