/**
 * What the store API shows of a PGS payment: the storefront's keys, never the gateway's transaction ids or the
 * shopper's IP (Medusa serves a session's data, and a payment's copy of it, in store cart and order answers).
 */
import { storeBody } from "../support/store"
import { adminPost, BROWSER_INFO, paidEmbeddedCart, paymentOfOrder, storePost } from "../support/checkout"
import { sessionFields } from "../../support/session-fields"

export default storeBody("what the store API shows of a payment", (s) => {
  it("keeps the gateway's transaction ids and the shopper's IP out of the store's cart, session and order answers; the admin still sees them", async () => {
    const { cart, session, transactionId, attached } = await paidEmbeddedCart(s)
    expect(attached.status).toBe(200)
    const told = await storePost(s, `/store/pgs/payment-sessions/${session.id}/client-info`, { browser_info: BROWSER_INFO })
    expect(told.status).toBe(200)
    const cartRead = await s.api.get(`/store/carts/${cart.id}?fields=id,*payment_collection,*payment_collection.payment_sessions`, { headers: s.storeHeaders })
    const cartSession = cartRead.data.cart.payment_collection.payment_sessions.find((p: any) => p.provider_id === "pp_pgs_pgs")
    // What the widget needs is there.
    expect(cartSession.data).toMatchObject({ integration: "embedded_fields", gateway_status: "APPROVED", gateway_session_id: expect.any(String), client_key: expect.any(String) })
    const answers = { attached: attached.data, told: told.data, cart: cartRead.data }

    const done = await s.completeCart(cart.id)
    expect(done.data.type).toBe("order")
    const orderId = done.data.order.id
    const orderRead = await s.api.get(`/store/orders/${orderId}?fields=id,*payment_collections,*payment_collections.payments,*payment_collections.payment_sessions`, { headers: s.storeHeaders })
    expect(orderRead.status).toBe(200)
    const collectionRead = await s.api.post(`/store/payment-collections`, { cart_id: cart.id }, { headers: s.storeHeaders, validateStatus: () => true })
    for (const [what, body] of Object.entries({ ...answers, completed: done.data, order: orderRead.data, collection: collectionRead.data })) {
      const text = JSON.stringify(body)
      expect([what, text.includes(transactionId)]).toEqual([what, false])
      // The sandbox's script URL holds 127.0.0.1 too: the IP is looked for under its name, in public keys and in `internal`.
      expect([what, text.includes("customer_ip")]).toEqual([what, false])
    }
    // The admin's view of the payment (and the plugin's own code) still has it.
    const payment = await paymentOfOrder(s, orderId)
    expect(sessionFields(payment.data).transaction_id).toBe(transactionId)
    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`)).status).toBe(200)
  })
})
