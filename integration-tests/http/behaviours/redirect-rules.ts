/**
 * The rules around redirect payments: what is refused before any gateway call, what a cart changed after the
 * redirect can do, management on single-step methods, terminal method settings, and the hosted payment page.
 */
import { Modules } from "@medusajs/framework/utils"
import { request } from "undici"
import { BROWSER_INFO } from "../../support/sandbox"
import { storeBody } from "../support/store"
import { capturedPayments, choose, clientInfo, orderPayments, providerId, sessionRow, sessionStatus, startRedirect } from "../support/redirect"
import { adminPost, ledger, minor } from "../support/checkout"
import { eventRows, orderOfCart, waitFor } from "../support/webhooks"

/** The store option these tests need: the store-*.spec.ts that runs them boots with it. */
export const storeEnv = { PGS_ORIGINATOR_URL: "https://shop.example/de" }

export default storeBody(
  "redirect payment rules",
  (s) => {
  /** Initiating a session answers 400 with this message, and the gateway saw nothing. */
  async function refusedAtInitiate(identifier: string, currency: string, data: Record<string, unknown>, message: RegExp) {
    const before = (await ledger(s.sandbox)).length
    const cart = await s.createCart({ currency_code: currency })
    const collection = await s.api.post("/store/payment-collections", { cart_id: cart.id }, { headers: s.storeHeaders })
    const res = await s.api.post(
      `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`,
      { provider_id: providerId(identifier), data },
      { headers: s.storeHeaders, validateStatus: () => true },
    )
    expect(res.status).toBe(400)
    expect(res.data.message).toMatch(message)
    expect((await ledger(s.sandbox)).length).toBe(before)
  }

  describe("refused before any gateway call", () => {
    it("refuses the instant PLN method for a cart in another currency", () =>
      refusedAtInitiate("pgs-provider-instant", "eur", {}, /pgs-provider-instant takes PLN only; this cart is in EUR/))

    it("refuses a scheme code that is not exactly 6 digits", () =>
      refusedAtInitiate("pgs-provider-instant", "pln", { scheme_code: "12345" }, /data\.scheme_code must be exactly 6 digits/))

    it("refuses a phone that is not a possible E.164 number", () =>
      refusedAtInitiate("pgs-provider-instant", "pln", { phone: "+4812" }, /data\.phone/))

    it("refuses a voucher session without a code", () =>
      refusedAtInitiate("pgs-voucher-redirect", "eur", {}, /data\.voucher_code is required for pgs-voucher-redirect/))

    it("refuses a voucher code outside the 27, upper case, or with the prefix", async () => {
      await refusedAtInitiate("pgs-voucher-redirect", "eur", { voucher_code: "xyz" }, /"xyz" is not a voucher code/)
      await refusedAtInitiate("pgs-voucher-redirect", "eur", { voucher_code: "ALI" }, /"ALI" is not a voucher code.*lower case/)
      await refusedAtInitiate("pgs-voucher-redirect", "eur", { voucher_code: "voucher-redirect-ali" }, /without the voucher-redirect- prefix/)
    })

    it("refuses a scheme code offered to a method that has none", () =>
      refusedAtInitiate("pgs-upi", "inr", { scheme_code: "123456" }, /data\.scheme_code is only for pgs-provider-instant/))

    it("refuses to complete a voucher payment whose cart has no payer name, naming what is missing", async () => {
      const before = (await ledger(s.sandbox)).length
      const cart = await s.createCart({ currency_code: "eur" })
      await s.api.post(`/store/carts/${cart.id}`, { billing_address: { address_1: "1 Nameless St", city: "Berlin", country_code: "de" } }, { headers: s.storeHeaders })
      const session = await s.initiatePaymentSession(cart.id, providerId("pgs-voucher-redirect"), { voucher_code: "gir" })
      await clientInfo(s, session.id, { browser_info: BROWSER_INFO })
      const done = await s.completeCart(cart.id)
      expect(done.status).toBe(400)
      expect(done.data.message).toMatch(/pgs-voucher-redirect needs the payer's first_name, last_name/)
      expect((await ledger(s.sandbox)).length).toBe(before)
      expect(await orderOfCart(s, cart.id)).toBeNull()
    })

    it("refuses to start a payment-endpoint method before the shopper's browser reported its IP", async () => {
      const before = (await ledger(s.sandbox)).length
      const cart = await s.createCart({ currency_code: "eur" })
      await s.initiatePaymentSession(cart.id, providerId("pgs-open-banking"))
      const done = await s.completeCart(cart.id)
      expect(done.status).toBe(400)
      expect(done.data.message).toMatch(/needs the shopper's IP address: call POST \/store\/pgs\/payment-sessions\/:id\/client-info/)
      expect((await ledger(s.sandbox)).length).toBe(before)
    })

    it("refuses a method the terminal's settings do not enable", async () => {
      await s.container().resolve<any>("pgs").createPgsTerminalSettings({
        terminal_id: "SBX-ALL-001",
        currency_codes: ["usd"],
        enabled_methods: ["pgs-qr-code"],
      })
      await refusedAtInitiate("pgs-wallets", "usd", {}, /pgs-wallets is not enabled on terminal SBX-ALL-001 \(USD\)/)
      const allowed = await startRedirect(s, "pgs-qr-code", { currency: "usd" })
      expect(allowed.transactionId).toBeTruthy()
    })
  })

  describe("the payer sent to the gateway", () => {
    it("fills the instant method's payer from the cart and the scheme code from the storefront", async () => {
      const r = await startRedirect(s, "pgs-provider-instant", { currency: "pln", data: { scheme_code: "654321", phone: "+48601234567" } })
      const tx = (await s.sandbox.control("GET", `/_sandbox/transactions/${r.transactionId}`)).body.record
      expect(tx.transaction_type).toBe("PURCHASE")
      expect(tx.currency).toBe("PLN")
      expect(tx.customer).toMatchObject({ first_name: "Ada", last_name: "Lovelace" })
      // The page does not ask for the code the storefront collected.
      const page = await (await request(r.url)).body.text()
      expect(page).not.toContain('name="scheme_code"')
      // Personal data stays out of the public session data.
      const row = await sessionRow(s, r.sessionId)
      expect(JSON.stringify(row.data)).not.toMatch(/Lovelace|654321|601234567/)
    })

    it("sends the payment endpoint the cart's country, the shopper's IP and return URLs of the storefront", async () => {
      const r = await startRedirect(s, "pgs-wallets", { currency: "eur" })
      const tx = (await s.sandbox.control("GET", `/_sandbox/transactions/${r.transactionId}`)).body.record
      expect(tx.transaction_type).toBe("PAYMENT")
      expect(tx.customer_ip).toMatch(/^(127\.0\.0\.1|::1)$/)
      expect(tx.return_url).toBe(`http://localhost:8000/checkout/return?pgs_session=${r.sessionId}&pgs_outcome=success`)
      expect(tx.cancel_url).toContain("pgs_outcome=cancel")
      expect(tx.customer.country).toBe("DE")
      expect(tx.originator_url).toBe("https://shop.example/de")
    })
  })

  it("does not complete a cart changed after the redirect with the old amount, and gives the old amount back", async () => {
    const r = await startRedirect(s, "pgs-bank-transfer", { currency: "eur" })
    // The shopper adds another item in another tab, then the first payment is approved at the provider.
    await s.api.post(`/store/carts/${r.cartId}/line-items`, { variant_id: s.seed.variantId, quantity: 1 }, { headers: s.storeHeaders })
    await choose(r.url, "approve")
    // The money taken for the old cart is not applied to the cart: it is refunded at the gateway, once.
    const outcome = await waitFor(async () => (await eventRows(s, { subject_id: r.transactionId })).find((e) => e.processed_at && e.outcome?.includes("late_money"))?.outcome, {
      what: `the approval of ${r.transactionId} given back`,
    })
    expect(outcome).toBe("applied:late_money_refund")
    const children = (await s.sandbox.control("GET", `/_sandbox/transactions/${r.transactionId}`)).body.children
    expect(children.filter((c: { transaction_type: string }) => c.transaction_type === "REFUND")).toHaveLength(1)
    expect(await orderOfCart(s, r.cartId)).toBeNull()
    const done = await s.completeCart(r.cartId)
    expect(done.data.type).not.toBe("order")
    expect(await orderOfCart(s, r.cartId)).toBeNull()
  })

  describe("management of single-step methods", () => {
    async function paidOrder() {
      const r = await startRedirect(s, "pgs-open-banking", { currency: "eur" })
      await choose(r.url, "approve")
      const done = await s.completeCart(r.cartId)
      const [payment] = await capturedPayments(s, done.data.order.id)
      return { r, payment }
    }

    it("refunds part of an approved payment at the gateway", async () => {
      const { r, payment } = await paidOrder()
      const res = await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 10 })
      expect(res.status).toBe(200)
      const refunds = (await ledger(s.sandbox)).filter((e) => e.parent_id === r.transactionId && e.transaction_type === "REFUND" && !e.replay)
      expect(refunds).toEqual([expect.objectContaining({ amount: minor(10), status: "APPROVED" })])
    })

    it("refuses to void an approved single-step payment, saying to refund it", async () => {
      const { payment } = await paidOrder()
      const paymentModule = s.container().resolve<any>(Modules.PAYMENT)
      await expect(paymentModule.cancelPayment(payment.id)).rejects.toThrow(/was a PAYMENT \(money taken in one step\): it cannot be voided\. Refund it instead/)
    })
  })

  describe("hosted payment page", () => {
    const pay = async (url: string, card: string) => {
      const res = await request(`${url}/pay`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ card_number: card, expiry_month: "12", expiry_year: String(new Date().getFullYear() + 2), cvv: "123" }).toString(),
      })
      await res.body.text()
      return res.headers.location as string | undefined
    }

    it("sends the shopper to the gateway's page with the terminal's page options, and authorizes the order on return", async () => {
      await s.container().resolve<any>("pgs").createPgsTerminalSettings({
        terminal_id: "SBX-ALL-001",
        currency_codes: ["eur"],
        locale: "sv-SE",
        hosted_page_options: { skip_three_ds: true, cvv_less: false, number_of_instalments: 3 },
      })
      const r = await startRedirect(s, "pgs-hosted", { currency: "eur" })
      const pageId = /\/hpp\/([^/?]+)$/.exec(r.url)![1]
      // The sandbox runs in this process: read the page the gateway made, as its dashboard would show it.
      const page = s.sandbox.sandbox.context.store.hostedPages.get(pageId)!
      expect(page).toMatchObject({
        language: "sv-SE",
        transaction_type: "AUTHORIZE",
        options: { skip_three_ds: true, cvv_less: false, number_of_instalments: 3 },
        success_url: `http://localhost:8000/checkout/return?pgs_session=${r.sessionId}&pgs_outcome=success`,
        cancel_url: `http://localhost:8000/checkout/return?pgs_session=${r.sessionId}&pgs_outcome=cancel`,
      })
      const back = await pay(r.url, s.sandbox.testCard("frictionless_approved"))
      expect(back).toContain(`pgs_session=${r.sessionId}&pgs_outcome=success`)

      const done = await s.completeCart(r.cartId)
      expect(done.data.type).toBe("order")
      const { payments } = await orderPayments(s, done.data.order.id)
      expect(payments).toHaveLength(1)
      expect(payments[0].provider_id).toBe("pp_pgs-hosted_pgs")
      const stored = await sessionRow(s, r.sessionId)
      const tx = (await s.sandbox.control("GET", `/_sandbox/transactions/${stored.data.transaction_id}`)).body.record
      expect(tx.integration_type).toBe("HOSTED_PAYMENT_PAGE")
      expect(tx.transaction_type).toBe("AUTHORIZE")
    })

    it("sends card payments of the card provider to the hosted page when the terminal's integration type says so", async () => {
      await s.container().resolve<any>("pgs").createPgsTerminalSettings({
        terminal_id: "SBX-ALL-001",
        currency_codes: ["usd"],
        integration_type: "HOSTED_PAYMENT_PAGE",
        transaction_type: "PURCHASE",
      })
      const r = await startRedirect(s, "pgs", { currency: "usd" })
      expect(r.url).toMatch(/\/hpp\//)
      await pay(r.url, s.sandbox.testCard("frictionless_approved"))
      const done = await s.completeCart(r.cartId)
      expect(done.data.type).toBe("order")
      const [payment] = await capturedPayments(s, done.data.order.id)
      expect(payment.provider_id).toBe("pp_pgs_pgs")
    })

    it("captures a hosted-page payment from the dashboard like a card payment", async () => {
      const r = await startRedirect(s, "pgs-hosted", { currency: "eur" })
      await pay(r.url, s.sandbox.testCard("frictionless_approved"))
      const done = await s.completeCart(r.cartId)
      const { payments } = await orderPayments(s, done.data.order.id)
      const res = await adminPost(s, `/admin/payments/${payments[0].id}/capture`)
      expect(res.status).toBe(200)
      expect((await orderPayments(s, done.data.order.id)).payments[0].captured_at).toBeTruthy()
    })

    it("completes the order from the webhook when the shopper never comes back from the page", async () => {
      const r = await startRedirect(s, "pgs-hosted", { currency: "eur" })
      await pay(r.url, s.sandbox.testCard("frictionless_approved"))
      const orderId = await waitFor(() => orderOfCart(s, r.cartId), { what: `order of ${r.cartId}` })
      expect((await orderPayments(s, orderId)).payments).toHaveLength(1)
    })

    it("reports a declined card on the page as a failed payment", async () => {
      const r = await startRedirect(s, "pgs-hosted", { currency: "eur" })
      expect(await pay(r.url, s.sandbox.testCard("frictionless_insufficient_funds"))).toContain("pgs_outcome=error")
      const done = await s.completeCart(r.cartId)
      expect(done.data.type === "order").toBe(false)
      expect((await sessionStatus(s, r.sessionId)).status).toBe("error")
    })

    it("reports a page the shopper canceled as canceled, without an order", async () => {
      const r = await startRedirect(s, "pgs-hosted", { currency: "eur" })
      const res = await request(`${r.url}/cancel`, { method: "POST" })
      await res.body.text()
      expect(res.headers.location).toContain("pgs_outcome=cancel")
      const done = await s.completeCart(r.cartId)
      expect(done.data.type === "order").toBe(false)
      expect((await sessionStatus(s, r.sessionId)).status).toBe("canceled")
    })

    it("keeps asking for payment when the shopper returns without paying", async () => {
      const r = await startRedirect(s, "pgs-hosted", { currency: "eur" })
      const again = await s.completeCart(r.cartId)
      expect(again.data.type).toBe("cart")
      expect(again.data.error.type).toBe("payment_requires_more_error")
      expect((await sessionStatus(s, r.sessionId)).next_action).toEqual({ type: "redirect", url: r.url })
    })
  })
},
)
