/**
 * Money after checkout beyond order edits: an exchange whose new items cost more than the returned ones, and a
 * draft order turned into an order — each leaves a payment collection that the payer pays through our store
 * routes, recorded once through Medusa's workflows.
 */
import { attachTransaction, payInFrame } from "./support/checkout"
import { admin, paidOrder } from "./support/admin-pgs"
import { adminOrder, applyPayment, collectionSession, collectionSummary, openCollection } from "./support/order-payments"
import { pgsStoreSuite, type StoreSuite } from "./support/store"
import { Modules } from "@medusajs/framework/utils"

async function step(s: StoreSuite, path: string, body: unknown = {}) {
  const res = await admin(s, "post", path, body)
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.data).slice(0, 500)}`)
  return res.data
}

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

pgsStoreSuite("money after checkout: exchanges and draft orders", (s) => {
  it("pays the difference of an exchange that sends out more than it takes back", async () => {
    const { orderId } = await paidOrder(s)
    const order = (await admin(s, "get", `/admin/orders/${orderId}?fields=id,*items`)).data.order
    // Only a fulfilled item can be taken back. The seeded store has no stock location with a fulfillment provider,
    // so the fulfillment is registered on the order itself (what the exchange checks).
    await s.container().resolve<any>(Modules.ORDER).registerFulfillment({ order_id: orderId, items: [{ id: order.items[0].id, quantity: 1 }] })
    const { exchange } = await step(s, "/admin/exchanges", { order_id: orderId })
    await step(s, `/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: order.items[0].id, quantity: 1 }] })
    await step(s, `/admin/exchanges/${exchange.id}/outbound/items`, { items: [{ variant_id: s.seed.variantId, quantity: 2 }] })
    await step(s, `/admin/exchanges/${exchange.id}/request`)
    const collection = await openCollection(s, orderId)
    const summary = await collectionSummary(s, collection.id, `?order_id=${orderId}`)
    expect(summary.data.payment_collection.payable).toBe(true)
    const applied = await payByCard(s, collection.id)
    expect(applied.payment_collection.owed_minor).toBe(0)
    const after = (await adminOrder(s, orderId)).payment_collections.find((c: any) => c.id === collection.id)
    expect(after.status).toBe("authorized")
    expect(after.payments).toHaveLength(1)
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
    expect(summary.data.payment_collection).toMatchObject({ payable: true, order: { id: draft_order.id } })
    await payByCard(s, collection.id)
    const after = await adminOrder(s, draft_order.id)
    const paid = after.payment_collections.find((c: any) => c.id === collection.id)
    expect(paid.status).toBe("authorized")
    expect(paid.payments).toHaveLength(1)
    expect(after.payment_status).toBe("authorized")
  })
})
