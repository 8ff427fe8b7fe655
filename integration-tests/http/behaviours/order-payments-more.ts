/**
 * Money after checkout beyond order edits: an exchange or a claim whose new items cost more than the ones taken
 * back, and a draft order turned into an order — each leaves a payment collection that the payer pays through our
 * store routes (the storefront page's calls), recorded once through Medusa's workflows.
 */
import { attachTransaction, payInFrame } from "../support/checkout"
import { capturedOrder } from "../support/pay-link"
import { drillOrderChange } from "../support/order-change-drill"
import { adminOrder, applyPayment, collectionSession, collectionSummary, openCollection } from "../support/order-payments"
import { adminStep as step, ORDER_CHANGES_OWING_MORE } from "../support/order-changes"
import { storeBody, type StoreSuite } from "../support/store"

/** Pays the collection by card through our routes, as the payment page does. */
async function payByCard(s: StoreSuite, collectionId: string) {
  const started = await collectionSession(s, collectionId, { provider_id: "pp_pgs_pgs" })
  expect(started.status).toBe(200)
  const session = started.data.payment_session
  const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
  expect((await attachTransaction(s, session.id, transactionId)).status).toBe(200)
  const applied = await applyPayment(s, collectionId, session.id)
  expect(applied.data.status).toBe("applied")
  return applied.data
}

export default storeBody("money after checkout: exchanges and draft orders", (s) => {
  it.each(ORDER_CHANGES_OWING_MORE)("pays the difference of %s that sends out more than it takes back", async (_, change) => {
    const { orderId } = await capturedOrder(s)
    await drillOrderChange(s, orderId, change, async (collectionId) => {
      const summary = await collectionSummary(s, collectionId, `?order_id=${orderId}`)
      expect(summary.data.payment_collection).toMatchObject({ payable: true, owed: "25.50" })
      const applied = await payByCard(s, collectionId)
      expect(applied.payment_collection.owed_minor).toBe(0)
    })
  })

  it("pays a draft order turned into an order", async () => {
    const region = s.seed.regions.eur
    const address = { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical St", city: "Berlin", country_code: "de", postal_code: "10115" }
    const { draft_order } = await step(s, "/admin/draft-orders", { region_id: region, email: "draft@example.com", billing_address: address, shipping_address: address })
    await step(s, `/admin/draft-orders/${draft_order.id}/edit`)
    await step(s, `/admin/draft-orders/${draft_order.id}/edit/items`, { items: [{ variant_id: s.seed.variantId, quantity: 1 }] })
    await step(s, `/admin/draft-orders/${draft_order.id}/edit/confirm`)
    await step(s, `/admin/draft-orders/${draft_order.id}/convert-to-order`)
    const collection = await openCollection(s, draft_order.id)
    const summary = await collectionSummary(s, collection.id)
    expect(summary.data.payment_collection).toMatchObject({ payable: true, order: { display_id: expect.any(Number) } })
    await payByCard(s, collection.id)
    const after = await adminOrder(s, draft_order.id)
    const paid = after.payment_collections.find((c: any) => c.id === collection.id)
    expect(paid.status).toBe("authorized")
    expect(paid.payments).toHaveLength(1)
    expect(after.payment_status).toBe("authorized")
  })
})
