/**
 * The storefront widget with redirect methods, in Chromium against a running store: the picker lists the methods
 * that can serve the cart, the shopper leaves for the sandbox provider page, comes back to the shop's
 * /checkout/return page, and the widget's return helper shows progress until the webhook has decided.
 */
import type { Page } from "playwright-core"
import { waitFor } from "../support/sandbox"
import { sessionFields } from "../support/session-fields"
import { screenshot } from "./support"
import { cardFrame, orderOf, payByCard, widgetState, widgetSuite } from "./widget-support"

widgetSuite("storefront widget: redirect methods", (s, shop) => {
  /** Picks a method by provider id, pays, and waits for the sandbox provider page. */
  async function leaveFor(page: Page, providerId: string, payLabel = "Pay") {
    await page.locator(`input[value="${providerId}"]`).check()
    await page.getByRole("button", { name: payLabel }).press("Enter")
    await page.waitForURL(/\/provider\//)
  }

  // 60 s: the approval comes by webhook, which a loaded 2-core machine may take a while to process.
  const result = (page: Page, state: string) => page.locator(`#result[data-pgs-result="${state}"]`).waitFor({ timeout: 60_000 })

  /** The gateway transaction of the cart's session of `providerId`, as the store recorded it (its store answers leave it out). */
  async function transactionOf(cartId: string, providerId: string): Promise<string> {
    const res = await s.api.get(`/store/carts/${cartId}?fields=id,*payment_collection.payment_sessions`, { headers: s.storeHeaders })
    const { id } = res.data.cart.payment_collection.payment_sessions.find((p: any) => p.provider_id === providerId)
    const stored = await s.container().resolve<any>("payment").retrievePaymentSession(id)
    return sessionFields(stored.data).transaction_id
  }

  it("lists the PGS methods that can serve the cart, on a phone-sized screen", async () => {
    const { page, context } = await shop().checkout({}, { currency_code: "pln" }, { width: 360, height: 740 })
    await page.getByRole("radio", { name: "Card", exact: true }).waitFor()
    const values = await page.locator('input[name="pgs-method"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))
    expect(values[0]).toBe("card") // cards first
    expect(values).toEqual(expect.arrayContaining(["pp_pgs-open-banking_pgs", "pp_pgs-provider-instant_pgs", "pp_pgs-hosted_pgs", "pp_pgs-voucher-redirect_pgs"]))
    expect(values).not.toContain("pp_system_default")
    expect(values).not.toContain("pp_pgs-upi_pgs") // rupees only: the server leaves it out of a PLN cart
    expect(await page.getByRole("group", { name: "Payment method" }).count()).toBe(1)
    await page.locator(".pgs-card iframe").waitFor()
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true) // nothing overflows sideways
    await screenshot(page, "widget-redirect-method-picker")
    await context.close()
  })

  it("names the wallets so a shopper can tell them apart, in their language, with the admin's names first", async () => {
    const phone = { width: 360, height: 740 }
    const radios = (page: Page) => page.locator(".pgs-name").allTextContents()
    // Defaults: the payment page's wallets and the wallet on this device say what they are, next to the brands.
    const en = await shop().checkout({ walletToken: "never-used" }, { currency_code: "eur" }, phone)
    await en.page.getByRole("radio", { name: "Other wallets (chosen on the next page)", exact: true }).waitFor()
    expect(await radios(en.page)).toEqual(expect.arrayContaining(["Card", "Wallet on this device", "Wallet One", "Wallet Two"]))
    expect(await en.page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true)
    await screenshot(en.page, "widget-method-names-eur-360")
    await en.context.close()

    // The terminal serving EUR names two methods in Swedish only.
    const pgs = s.container().resolve<any>("pgs")
    const [terminal] = await pgs.createPgsTerminalSettings([
      { terminal_id: "SBX-ALL-001", currency_codes: ["eur"], method_names: { "pgs-wallets": { "sv-SE": "Swish och andra plånböcker" }, pgs: { "sv-SE": "Bankkort" } } },
    ])
    try {
      const sv = await shop().checkout({ locale: "sv-SE", walletToken: "never-used" }, { currency_code: "eur" }, phone)
      await sv.page.getByRole("radio", { name: "Swish och andra plånböcker", exact: true }).waitFor()
      expect(await radios(sv.page)).toEqual(expect.arrayContaining(["Bankkort", "Plånbok på den här enheten", "Wallet One", "Värdebevis"]))
      await screenshot(sv.page, "widget-method-names-admin-sv-360")
      // Another language has no admin name: the widget's own.
      await sv.page.locator("#shop-locale").selectOption("en-US")
      await sv.page.getByRole("radio", { name: "Other wallets (chosen on the next page)", exact: true }).waitFor()
      expect(await sv.page.getByRole("radio", { name: "Card", exact: true }).count()).toBe(1)
      await sv.context.close()

      // The storefront's own label still wins over the admin's.
      const own = await shop().checkout({ locale: "sv-SE", labels: { "pp_pgs-wallets_pgs": "Butikens plånböcker" } }, { currency_code: "eur" }, phone)
      await own.page.getByRole("radio", { name: "Butikens plånböcker", exact: true }).waitFor()
      expect(await own.page.getByRole("radio", { name: "Bankkort", exact: true }).count()).toBe(1)
      await own.context.close()
    } finally {
      await pgs.deletePgsTerminalSettings(terminal.id)
    }
  })

  it("pays with online banking: approved at the provider, the return page completes the order", async () => {
    const { page, context } = await shop().checkout()
    await leaveFor(page, "pp_pgs-open-banking_pgs")
    await page.getByRole("button", { name: "Approve" }).click()
    await page.waitForURL(/\/checkout\/return\?pgs_session=/)
    await result(page, "approved")
    expect(await page.locator("#result .pgs-status").textContent()).toBe("Payment approved. Thank you for your order!")
    const r = await page.evaluate(() => (window as any).shopResult)
    expect(r.order.id).toMatch(/^order_/)
    await screenshot(page, "widget-redirect-approved")
    await context.close()
  })

  it("tells the shopper their order number at once while the bank confirms the payment, then the approval when the webhook comes", async () => {
    const { cart, page, context } = await shop().checkout()
    await leaveFor(page, "pp_pgs-open-banking_pgs")
    await page.getByRole("button", { name: "Leave pending" }).click()
    await page.waitForURL(/\/checkout\/return/)
    await result(page, "pending")
    const told = await page.evaluate(() => (window as any).shopResult)
    expect(told.status).toBe("pending")
    expect(await page.locator("#result .pgs-status").textContent()).toBe(
      `Thank you! Your order #${told.order.display_id} is placed. Your bank is still confirming the payment; we will let you know as soon as it is confirmed.`,
    )
    await screenshot(page, "widget-redirect-pending")
    const transactionId = await transactionOf(cart.id, "pp_pgs-open-banking_pgs")
    const decided = await s.sandbox.control("POST", `/_sandbox/transactions/${transactionId}/outcome`, { status: "APPROVED" })
    expect(decided.status).toBe(200)
    await result(page, "approved")
    await screenshot(page, "widget-redirect-pending-then-approved")
    await context.close()
  })

  it("tells the shopper the provider declined, in their language, with a way back to the checkout", async () => {
    const { page, context } = await shop().checkout({ locale: "ro-RO" })
    await leaveFor(page, "pp_pgs-open-banking_pgs", "Plătește")
    await page.getByRole("button", { name: "Decline" }).click()
    await result(page, "declined")
    expect(await page.getByRole("alert").textContent()).toBe("Plata a fost refuzată. Încercați altă metodă de plată.")
    expect(await page.getByRole("link", { name: "Înapoi la plată" }).getAttribute("href")).toBe("/checkout")
    await screenshot(page, "widget-redirect-declined-ro")
    await context.close()
  })

  it("pays with the voucher the shopper picks in the voucher's row", async () => {
    const { cart, page, context } = await shop().checkout()
    await page.getByRole("radio", { name: "Voucher" }).check()
    await page.getByLabel("Choose your voucher").selectOption("gir")
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await page.waitForURL(/\/provider\//)
    await page.getByRole("button", { name: "Approve" }).click()
    await result(page, "approved")
    const transactionId = await transactionOf(cart.id, "pp_pgs-voucher-redirect_pgs")
    const tx = (await s.sandbox.control("GET", `/_sandbox/transactions/${transactionId}`)).body
    expect(JSON.stringify(tx)).toContain("voucher-redirect-gir") // the picked voucher reached the gateway
    await context.close()
  })

  it("takes the 6-digit code of the instant PLN method, refusing anything else", async () => {
    const { cart, page, context } = await shop().checkout({}, { currency_code: "pln" })
    await page.getByRole("radio", { name: "Instant payment with a code" }).check()
    const code = page.getByLabel("6-digit code from your banking app")
    await code.fill("12345")
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await page.getByRole("alert").filter({ hasText: "Enter the 6 digits of the code." }).waitFor()
    expect(await code.getAttribute("aria-invalid")).toBe("true")
    await screenshot(page, "widget-redirect-instant-code-invalid")
    await code.fill("123456")
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await page.waitForURL(/\/provider\//)
    await page.getByRole("button", { name: "Approve" }).click()
    await result(page, "approved")
    const transactionId = await transactionOf(cart.id, "pp_pgs-provider-instant_pgs")
    const tx = await waitFor(async () => (await s.sandbox.control("GET", `/_sandbox/transactions/${transactionId}`)).body, { what: "the instant payment" })
    expect(JSON.stringify(tx)).toContain("123456") // the code the shopper typed reached the gateway
    await screenshot(page, "widget-redirect-instant-approved")
    await context.close()
  })

  // Pay with a redirect method reads no cart first (issue 48): the session route's refusal of a completed cart is the guard.
  it("shows a second tab the order the first tab placed when its shopper then pays by online banking, nothing paid anew", async () => {
    const cart = await s.createCart()
    // The second tab loads first: each tab's card session replaces the one before it, so the first tab pays on the
    // cart's current session (a tab whose session another replaced is refused at completion and starts over).
    const two = await shop().open({ cartId: cart.id })
    await cardFrame(two.page).locator("input").first().waitFor({ timeout: 30_000 })
    const one = await shop().open({ cartId: cart.id })
    await cardFrame(one.page).locator("input").first().waitFor({ timeout: 30_000 })
    await payByCard(one.page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(one.page, "done")
    const order = await orderOf(one.page)
    await two.page.locator('input[value="pp_pgs-open-banking_pgs"]').check()
    await two.page.getByRole("button", { name: /^Pay/ }).press("Enter")
    await widgetState(two.page, "done")
    expect((await orderOf(two.page))?.id).toBe(order!.id)
    expect(two.page.url()).not.toMatch(/\/provider\//)
    await Promise.all([one.context.close(), two.context.close()])
  })
})
