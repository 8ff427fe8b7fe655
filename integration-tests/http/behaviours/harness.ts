import { storeBody, SYSTEM_PROVIDER_ID } from "../support/store"

/** The harness itself, checked with Medusa's system provider so it does not depend on ours. */
export default storeBody("the test store harness", (s) => {
  it("completes a cart paid with Medusa's system provider into an order", async () => {
    const cart = await s.createCart()
    expect(cart.total).toBe(s.seed.prices.eur)
    const session = await s.initiatePaymentSession(cart.id, SYSTEM_PROVIDER_ID)
    expect(session.status).toBe("pending")
    const res = await s.completeCart(cart.id)
    expect(res.status).toBe(200)
    expect(res.data.type).toBe("order")
  })

  it("lets an admin read the order list", async () => {
    const res = await s.api.get("/admin/orders", { headers: await s.adminHeaders() })
    expect(res.status).toBe(200)
  })

  it("registers a customer who can read their profile", async () => {
    const { token, customer } = await s.registerCustomer()
    const me = await s.api.get("/store/customers/me", { headers: { ...s.storeHeaders, authorization: `Bearer ${token}` } })
    expect(me.data.customer.id).toBe(customer.id)
  })

  it("registered the store's webhook URL with the sandbox", async () => {
    const res = await s.sandbox.control("GET", "/_sandbox/webhooks")
    expect(res.body.endpoints).toContain(s.webhookUrl)
  })
})
