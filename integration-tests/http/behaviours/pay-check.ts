/**
 * The widget's read before a card's Pay (GET /pgs/carts/:id/pay-check): the fields Medusa's own cart route answers
 * for it, without a publishable key or any other header (a browser then sends it without a CORS preflight), readable
 * from the store's STORE_CORS origins only (decided as Medusa's /store CORS decides), never kept by a cache.
 */
import { request } from "undici"
import { paidEmbeddedCart } from "../support/checkout"
import { storeBody } from "../support/store"

/** The store-checkout suite's STORE_CORS (store-checkout.spec.ts): one exact origin and one pattern. */
export const PAY_CHECK_STORE_CORS = "http://localhost:8000,/^https:\\/\\/[a-z]+\\.shop\\.example$/"

/** What Medusa's GET /store/carts/:id answers for the route's fields (the widget's read, the sessions' data left out). */
const MEDUSA_FIELDS = "id,completed_at,email,currency_code,total,*billing_address," + ["id", "provider_id", "status", "amount"].map((f) => `payment_collection.payment_sessions.${f}`).join(",")

export default storeBody("the widget's pay check: the cart a card's Pay reads, with no preflight", (s) => {
  /** The route as a browser's simple GET asks it: no header but the page's Origin. */
  const payCheck = async (path: string, origin?: string) => {
    const res = await request(`${s.medusaUrl}${path}`, { headers: origin ? { origin } : {} })
    const text = await res.body.text()
    return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : null }
  }
  const medusaCart = async (cartId: string) => (await s.api.get(`/store/carts/${cartId}?fields=${MEDUSA_FIELDS}`, { headers: s.storeHeaders })).data.cart

  it("answers the cart as Medusa's cart route does, its card session without data, with no publishable key and no cache", async () => {
    const cart = await s.createCart()
    const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
    const res = await payCheck(`/pgs/carts/${cart.id}/pay-check`)
    expect(res.status).toBe(200)
    expect(res.headers["cache-control"]).toBe("no-store")
    expect(res.body.cart).toEqual(await medusaCart(cart.id))
    expect(res.body.cart).toMatchObject({
      id: cart.id,
      completed_at: null,
      email: cart.email,
      currency_code: "eur",
      total: cart.total,
      billing_address: { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical St", city: "Berlin", country_code: "de", postal_code: "10115" },
      payment_collection: { payment_sessions: [{ id: session.id, provider_id: "pp_pgs_pgs", status: "pending", amount: cart.total }] },
    })
    expect(res.body.cart.payment_collection.payment_sessions[0]).not.toHaveProperty("data")
    // Any spelling Express routes here answers the same.
    const shouted = await payCheck(`/PGS/Carts/${cart.id}/PAY-CHECK/`)
    expect([shouted.status, shouted.body.cart]).toEqual([200, res.body.cart])
  })

  it("is answered in the same fields by Medusa's own cart route with its default fields, the widget's read where the pay check cannot answer", async () => {
    const cart = await s.createCart()
    const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
    // The widget asks the store API without a field list (storefront-widget/src/core/cart.ts: readCart): its
    // defaults must hold every field the pay check answers, else Pay there would pay without the payer or the session.
    const byDefault = (await s.api.get(`/store/carts/${cart.id}`, { headers: s.storeHeaders })).data.cart
    const { payment_collection, billing_address, ...cartFields } = (await payCheck(`/pgs/carts/${cart.id}/pay-check`)).body.cart
    expect(byDefault).toMatchObject(cartFields)
    // The payer the gateway is told (payerOf): these of the billing address.
    const payer = (a: Record<string, unknown>) => Object.fromEntries(["first_name", "last_name", "address_1", "city", "postal_code", "country_code", "phone"].map((k) => [k, a[k]]))
    expect(payer(byDefault.billing_address)).toEqual(payer(billing_address))
    expect(payer(billing_address)).toMatchObject({ first_name: "Ada", city: "Berlin", country_code: "de" })
    expect(byDefault.payment_collection.payment_sessions).toEqual([expect.objectContaining(payment_collection.payment_sessions[0])])
    expect(byDefault.payment_collection.payment_sessions[0]).toMatchObject({ id: session.id, provider_id: "pp_pgs_pgs" })
  })

  it("says a completed cart is completed, so a second tab shows the order instead of paying", async () => {
    const { cart } = await paidEmbeddedCart(s)
    expect((await s.completeCart(cart.id)).status).toBe(200)
    const res = await payCheck(`/pgs/carts/${cart.id}/pay-check`)
    expect(res.status).toBe(200)
    expect(res.body.cart.completed_at).toEqual(expect.any(String))
    expect(res.body.cart).toEqual(await medusaCart(cart.id))
  })

  it("answers 404 for an unknown cart and 400 naming the id for a malformed one, NUL or a lone surrogate included, in any case of the path", async () => {
    const unknown = await payCheck("/pgs/carts/cart_01JZZZZZZZZZZZZZZZZZZZZZZZ/pay-check")
    expect([unknown.status, unknown.body]).toEqual([404, { type: "not_found", message: "Cart with id 'cart_01JZZZZZZZZZZZZZZZZZZZZZZZ' not found" }])
    expect(unknown.headers["cache-control"]).toBe("no-store")
    const malformed = await payCheck("/pgs/carts/order_01J/pay-check")
    expect([malformed.status, malformed.body.errors]).toEqual([400, [{ field: "id", message: "must be a cart id such as cart_01J…" }]])
    for (const id of ["cart_01J%00", "%00", "cart_%ED%A0%80", "%ff", "cart_" + "x".repeat(300), "cart_01J%2F..%2Fx"])
      for (const path of [`/pgs/carts/${id}/pay-check`, `/PGS/CARTS/${id}/Pay-Check`]) {
        const res = await payCheck(path)
        expect([path, res.status, res.body?.type]).toEqual([path, 400, "invalid_data"])
      }
  })

  it("lets exactly the STORE_CORS origins read it, as Medusa's /store CORS does, never with credentials", async () => {
    const cart = await s.createCart()
    const path = `/pgs/carts/${cart.id}/pay-check`
    /** Medusa's own answer for the origin: the preflight of the widget's store read. */
    const medusaAllows = async (origin: string) => {
      const res = await request(`${s.medusaUrl}/store/carts/${cart.id}`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "GET", "access-control-request-headers": "x-publishable-api-key" },
      })
      await res.body.dump()
      return res.headers["access-control-allow-origin"] ?? null
    }
    const allowed = ["http://localhost:8000", "https://www.shop.example"]
    const refused = ["http://localhost:8001", "https://www.shop.example.evil.example", "https://shop.example", "null", "*"]
    for (const origin of [...allowed, ...refused]) {
      const res = await payCheck(path, origin)
      expect(res.status).toBe(200)
      const allows = res.headers["access-control-allow-origin"] ?? null
      expect([origin, allows]).toEqual([origin, allowed.includes(origin) ? origin : null])
      expect([origin, allows]).toEqual([origin, await medusaAllows(origin)])
      expect(res.headers["access-control-allow-credentials"]).toBeUndefined()
      expect(String(res.headers.vary)).toMatch(/\bOrigin\b/i)
    }
    // An unknown cart's 404 is readable too: the widget tells it from a server without the route (which it reads past).
    const unknown = await payCheck("/pgs/carts/cart_01JZZZZZZZZZZZZZZZZZZZZZZZ/pay-check", allowed[0])
    expect([unknown.status, unknown.headers["access-control-allow-origin"]]).toEqual([404, allowed[0]])
  })
})
