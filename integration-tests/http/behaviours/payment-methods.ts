/**
 * GET /store/pgs/payment-methods: the PGS methods that can serve a cart, decided on the server from the cart's
 * region, the method families' currency rules and the terminal's enabled methods — what the widget lists.
 */
import { adminPost, BROWSER_INFO } from "../support/checkout"
import { PLAIN_VISA, walletPayment } from "../support/checkout-direct"
import { storeBody } from "../support/store"

export default storeBody("store: payment methods of a cart", (s) => {
  const methodsOf = async (cartId: string) => {
    const res = await s.api.get(`/store/pgs/payment-methods?cart_id=${cartId}`, { headers: s.storeHeaders, validateStatus: () => true })
    return res
  }
  const ids = (res: { data: { payment_methods: { provider_id: string }[] } }) => res.data.payment_methods.map((m) => m.provider_id)

  it("lists the card first and leaves out methods whose currency the cart does not have", async () => {
    const eurCart = await s.createCart({ currency_code: "eur" })
    const eur = await methodsOf(eurCart.id)
    expect(eur.status).toBe(200)
    expect(eur.data.currency_code).toBe("eur")
    // The cart's total as the store's cart answers it, for the widget's Pay button (it reads no cart before its session).
    const read = await s.api.get(`/store/carts/${eurCart.id}?fields=id,total`, { headers: s.storeHeaders })
    expect(eur.data.total).toBeGreaterThan(0)
    expect(eur.data.total).toBe(read.data.cart.total)
    expect(ids(eur)[0]).toBe("pp_pgs_pgs")
    expect(ids(eur)).toEqual(expect.arrayContaining(["pp_pgs-open-banking_pgs", "pp_pgs-hosted_pgs", "pp_pgs-voucher-redirect_pgs"]))
    expect(ids(eur)).not.toContain("pp_pgs-provider-instant_pgs") // PLN only
    expect(ids(eur)).not.toContain("pp_pgs-upi_pgs") // INR only
    expect(ids(eur)).not.toContain("pp_system_default") // not PGS's
    const voucher = eur.data.payment_methods.find((m: { identifier: string }) => m.identifier === "pgs-voucher-redirect")
    expect(voucher.voucher_codes).toContain("ali")

    expect(ids(await methodsOf((await s.createCart({ currency_code: "pln" })).id))).toContain("pp_pgs-provider-instant_pgs")
    expect(ids(await methodsOf((await s.createCart({ currency_code: "inr" })).id))).toContain("pp_pgs-upi_pgs")
  })

  it("does not ask the consent to charges by the shop when the store's option is off: no saved_card_consent, and data.merchant_consent refused in words", async () => {
    const cart = await s.createCart()
    const card = (await methodsOf(cart.id)).data.payment_methods.find((m: { identifier: string }) => m.identifier === "pgs")
    expect(card).toBeDefined()
    expect(card).not.toHaveProperty("saved_card_consent")
    const collection = await s.api.post("/store/payment-collections", { cart_id: cart.id }, { headers: s.storeHeaders })
    const consent = { wording: "pgs-widget-1", locale: "en-US", text: "Save this card and allow the shop to charge it" }
    const res = await s.api.post(
      `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`,
      { provider_id: "pp_pgs_pgs", data: { payment_method: walletPayment(PLAIN_VISA), browser_info: BROWSER_INFO, save_card: true, merchant_consent: consent } },
      { headers: s.storeHeaders, validateStatus: () => true },
    )
    expect(res.status).toBe(400)
    expect(res.data.message).toBe("data.merchant_consent is not asked by this store: its option savedCardConsent is off")
  })

  it("is the same rule initiate applies: UPI, left out of a EUR cart, is refused there too", async () => {
    const cart = await s.createCart({ currency_code: "eur" })
    const collection = await s.api.post("/store/payment-collections", { cart_id: cart.id }, { headers: s.storeHeaders })
    const res = await s.api.post(
      `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`,
      { provider_id: "pp_pgs-upi_pgs" },
      { headers: s.storeHeaders, validateStatus: () => true },
    )
    expect(res.status).toBe(400)
    expect(res.data.message).toMatch(/pgs-upi takes INR only; this cart is in EUR/)
  })

  it("offers only the providers enabled in the cart's region", async () => {
    const region = await adminPost(s, "/admin/regions", {
      name: "Card and QR only",
      currency_code: "usd",
      payment_providers: ["pp_pgs_pgs", "pp_pgs-qr-code_pgs", "pp_system_default"],
    })
    expect(region.status).toBe(200)
    const cart = await s.api.post("/store/carts", { region_id: region.data.region.id }, { headers: s.storeHeaders })
    expect(ids(await methodsOf(cart.data.cart.id))).toEqual(["pp_pgs_pgs", "pp_pgs-qr-code_pgs"])
  })

  it("offers only what the terminal for the cart's currency enables", async () => {
    await s.container().resolve<any>("pgs").createPgsTerminalSettings({
      terminal_id: "SBX-ALL-001",
      currency_codes: ["usd"],
      enabled_methods: ["pgs", "pgs-wallet-one-redirect"],
    })
    const usd = await methodsOf((await s.createCart({ currency_code: "usd" })).id)
    expect(ids(usd)).toEqual(["pp_pgs_pgs", "pp_pgs-wallet-one-redirect_pgs"])
    // Another currency's terminal is not bound by it.
    expect(ids(await methodsOf((await s.createCart({ currency_code: "eur" })).id))).toContain("pp_pgs-open-banking_pgs")
  })

  it("answers 404 for an unknown cart and 400, in words, for a missing or malformed id", async () => {
    const unknown = await methodsOf("cart_01JUNKNOWN0000000000000000")
    expect(unknown.status).toBe(404)
    expect(unknown.data.message).toMatch(/Cart cart_01JUNKNOWN0000000000000000 was not found/)
    const missing = await s.api.get("/store/pgs/payment-methods", { headers: s.storeHeaders, validateStatus: () => true })
    expect(missing.status).toBe(400)
    expect(missing.data.message).toMatch(/cart_id is required/)
    const malformed = await methodsOf("cart%20x;drop")
    expect(malformed.status).toBe(400)
    expect(malformed.data.message).toMatch(/cart_id must be a cart id/)
  })
})
