/**
 * The storefront widget paying by card against a running store (Medusa + plugin + sandbox), in Chromium:
 * the embedded fields, 3-D Secure inside the gateway's frame and in the widget's own steps (Direct API),
 * declines in the shopper's language, saved cards (asked for only for a logged-in shopper; this store asks the
 * consent to later charges by the shop, option savedCardConsent), field validation and switching the language.
 */
import path from "node:path"
import type { BrowserContext, Locator, Page } from "playwright-core"
import { waitFor } from "../support/sandbox"
import { currentSession, PLAIN_VISA, storedTransactionId, walletPayment } from "../http/support/checkout-direct"
import { screenshot } from "./support"
import { cardFrame, chargesFor, expectFinished, fillCardFields, orderOf, payByCard, widgetState, widgetSuite } from "./widget-support"
import { sessionFields } from "../support/session-fields"
import { recordViolations, shopHeader, type Violations, widgetPolicy, without } from "./widget-csp"

/** The save checkbox's words in English when the store asks consent to later charges (the test store's name). */
const CONSENT_WORDS = "Save this card and allow Medusa Store to charge it for amounts I still owe on my orders"
const SHOTS = path.resolve(__dirname, "../../artifacts/screenshots")

/**
 * The page's screenshot, checked to show the card frame as tall as the gateway's fields (and no empty band under
 * them): the frame keeps its content's height while the page is captured, and after.
 */
async function screenshotCardRow(page: Page, name: string) {
  const frame = page.locator(".pgs-card iframe")
  // The content: the frame's fields (and any status or 3-D Secure step) with the body's padding, whatever html and body say.
  const content = () => cardFrame(page).locator("#pgs-root").evaluate((root) => root.getBoundingClientRect().bottom + parseFloat(getComputedStyle(document.body).paddingBottom))
  // First the frame's own resize to its fields (a message after its first input shows, later under load): only a
  // change the capture makes counts below.
  await waitFor(async () => (Math.abs((await frame.boundingBox())!.height - (await content())) <= 2 ? true : null), { what: "the card frame as tall as its fields" })
  await frame.evaluate((f) => {
    const w = window as any
    w.cardFrameHeights = []
    w.cardFrameWatch = new MutationObserver(() => w.cardFrameHeights.push(f.getBoundingClientRect().height))
    w.cardFrameWatch.observe(f, { attributes: true, attributeFilter: ["style"] })
  })
  await screenshot(page, name)
  const during = await page.evaluate(() => {
    const w = window as any
    w.cardFrameWatch.disconnect()
    return w.cardFrameHeights as number[]
  })
  const heights = [...during, (await frame.boundingBox())!.height]
  const fields = await content()
  expect(heights.filter((h) => Math.abs(h - fields) > 2)).toEqual([])
}

widgetSuite("storefront widget: cards", (s, shop) => {
  const alertText = (page: Page) => page.locator(".pgs-error").textContent()
  // Keys reach the gateway's nested frames where Chromium's mouse clicks do not (see sandbox-embedded-3ds.spec.ts);
  // the widget's own buttons are pressed with the keyboard too (the card frame resizes as it validates, so a
  // mouse click aimed a moment earlier can miss, and shoppers without a mouse pay this way).
  const press = (l: Locator) => l.press("Enter")

  it("pays a card in the embedded fields without a challenge and places the order, charging once", async () => {
    const { cart, page, context } = await shop().checkout()
    await payByCard(page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(page, "done")
    expect(await page.locator(".pgs-status").textContent()).toBe("Payment approved. Thank you for your order!")
    await expectFinished(page)
    expect((await orderOf(page))?.id).toMatch(/^order_/)
    const session = await currentSession(s, cart.id)
    expect(await chargesFor(s, sessionFields(session.data).reference)).toHaveLength(1)
    await screenshot(page, "widget-card-frictionless-order")
    await context.close()
  })

  it("completes once when the store is busy (409) and when a completion's answer is lost, charging once", async () => {
    const { cart, page, context } = await shop().checkout()
    // The first completion meets another one running (Medusa's 409); the second reaches Medusa, which places the
    // order, but its answer is lost on the way back; the widget must ask again and get that same order.
    let calls = 0
    await context.route("**/store/carts/*/complete", async (route) => {
      calls++
      if (calls === 1) return route.fulfill({ status: 409, contentType: "application/json", body: JSON.stringify({ type: "conflict", message: "Cart is already being completed by another request" }) })
      if (calls === 2) {
        await route.fetch()
        return route.abort("connectionreset")
      }
      return route.continue()
    })
    await payByCard(page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(page, "done")
    expect(calls).toBe(3)
    const order = await orderOf(page)
    const again = await s.completeCart(cart.id)
    expect(again.data.order.id).toBe(order!.id) // one order
    const session = await currentSession(s, cart.id)
    expect(await chargesFor(s, sessionFields(session.data).reference)).toHaveLength(1) // one charge
    await screenshot(page, "widget-card-busy-and-lost-answer")
    await context.close()
  })

  it("runs the 3-D Secure challenge inside the card frame and places the order after Approve", async () => {
    const { page, context } = await shop().checkout()
    await payByCard(page, s.sandbox.testCard("redirect_interactive"))
    const approve = cardFrame(page).frameLocator('iframe[name="pgs-redirect"]').getByRole("button", { name: /Approve/ })
    await approve.waitFor()
    // The method list is locked meanwhile, but the bank's page is not dimmed with it: a shopper would read it as inactive.
    const dimmedFrom = await page.locator(".pgs-card iframe").evaluate((frame) => {
      for (let el: Element | null = frame; el; el = el.parentElement ?? ((el.getRootNode() as ShadowRoot).host ?? null))
        if (getComputedStyle(el).opacity !== "1") return `${el.tagName.toLowerCase()}.${el.className}`
      return null
    })
    expect(dimmedFrom).toBeNull()
    expect(await page.locator(".pgs-methods").evaluate((f) => (f as HTMLFieldSetElement).disabled)).toBe(true)
    // Under the bank's page, the widget says the bank is checking the card (not that the payment is processing).
    expect(await page.locator(".pgs-status").textContent()).toBe("Checking your card with your bank…")
    await screenshotCardRow(page, "widget-card-3ds-frame-challenge")
    await press(approve)
    await widgetState(page, "done")
    await expectFinished(page)
    expect((await orderOf(page))?.id).toMatch(/^order_/)
    await screenshot(page, "widget-card-3ds-frame-approved")
    await context.close()
  })

  it("shows the decline after the shopper refuses the challenge in the card frame, and places no order", async () => {
    const { page, context } = await shop().checkout()
    await payByCard(page, s.sandbox.testCard("redirect_interactive"))
    await press(cardFrame(page).frameLocator('iframe[name="pgs-redirect"]').getByRole("button", { name: /Decline/ }))
    await page.getByRole("alert").filter({ hasText: "declined" }).waitFor()
    expect(await alertText(page)).toBe("Your payment was declined. Please try another payment method.")
    expect(await orderOf(page)).toBeNull()
    await screenshot(page, "widget-card-3ds-frame-declined")
    await context.close()
  })

  it.each([
    ["approve", "done"],
    ["decline", "idle"],
  ])("runs the Direct API fingerprint and challenge in the widget (%s)", async (decision, endState) => {
    const cart = await s.createCart()
    const { page, context } = await shop().open({
      cartId: cart.id,
      walletToken: walletPayment(PLAIN_VISA, "PAN_ONLY").token,
      sessionData: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" },
    })
    await page.getByLabel("Wallet on this device").check()
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    const acs = page.frameLocator("iframe.pgs-acs")
    const button = acs.getByRole("button", { name: decision === "approve" ? /Approve/ : /Decline/ })
    await button.waitFor()
    expect(await page.getByRole("dialog", { name: "Confirm the payment with your bank" }).isVisible()).toBe(true)
    await screenshot(page, `widget-card-3ds-challenge-${decision}-acs`)
    await press(button)
    await widgetState(page, endState)
    if (decision === "approve") expect((await orderOf(page))?.id).toMatch(/^order_/)
    else {
      expect(await alertText(page)).toBe("Your payment was declined. Please try another payment method.")
      expect(await orderOf(page)).toBeNull()
    }
    const session = await currentSession(s, cart.id)
    // The gateway's id is the store's own (not in the store API's answers): read it as the store keeps it.
    const tx = await s.sandbox.control("GET", `/_sandbox/transactions/${await storedTransactionId(s, cart.id)}`)
    expect(tx.body.record.browser_info.user_agent).toMatch(/Chrome/) // the widget's own browser data reached 3-D Secure
    // Never public (sealed, seal.ts), and the sealed copy kept only until the gateway approves (attempt.ts, withoutSingleUseFields).
    expect(session.data.browser_info).toBeNull()
    if (decision === "approve") expect(session.data.sealed).toBeNull()
    else expect(session.data.sealed).toEqual(expect.any(String))
    expect(tx.body.record.flow.three_ds.method_completed).toBe(true) // the method iframe reached the ACS and reported back
    await screenshot(page, `widget-card-3ds-challenge-${decision}`)
    await context.close()
  })

  it("tells the shopper in their language that funds were insufficient", async () => {
    const { page, context } = await shop().checkout({ locale: "bs-BA" })
    await payByCard(page, s.sandbox.testCard("frictionless_insufficient_funds"), "Plati")
    await page.getByRole("alert").filter({ hasText: "nedovoljno sredstava" }).waitFor()
    expect(await alertText(page)).toBe("Vaše plaćanje je odbijeno: nedovoljno sredstava. Koristite drugu karticu.")
    expect(await page.locator("#payment").getAttribute("data-pgs-state")).toBe("idle") // the shopper may try another card
    await screenshot(page, "widget-card-insufficient-funds-bs")
    await context.close()
  })

  it("shows field validation errors and does not pay", async () => {
    const { cart, page, context } = await shop().checkout()
    await cardFrame(page).locator("#in-cardNumber").waitFor()
    await cardFrame(page).locator("#in-cardNumber").fill("4000 0000 0000 1001") // fails the Luhn check
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await page.getByRole("alert").filter({ hasText: "check the card details" }).waitFor()
    await cardFrame(page).locator("#err-cardNumber").filter({ hasText: "Card number is invalid" }).waitFor()
    await cardFrame(page).locator("#err-cvv").filter({ hasText: "This field is required" }).waitFor()
    expect(await page.locator("#payment").getAttribute("data-pgs-state")).toBe("idle")
    expect(await chargesFor(s, sessionFields((await currentSession(s, cart.id)).data).reference)).toEqual([])
    await screenshotCardRow(page, "widget-card-validation-errors")
    await context.close()
  })

  it("switches its own texts and the card fields to the language the shopper picks", async () => {
    const { page, context } = await shop().checkout()
    await cardFrame(page).locator('label[for="in-cardNumber"]').filter({ hasText: "Card number" }).waitFor()
    await page.locator("#shop-locale").selectOption("sv-SE")
    await page.getByRole("button", { name: "Betala" }).waitFor()
    expect(await page.locator(".pgs legend").textContent()).toBe("Betalningssätt")
    expect(await page.locator(".pgs").getAttribute("lang")).toBe("sv-SE")
    await cardFrame(page).locator('label[for="in-cardNumber"]').filter({ hasText: "Kortnummer" }).waitFor()
    await page.locator("#shop-locale").selectOption("ro-RO")
    await page.getByRole("button", { name: "Plătește" }).waitFor()
    await cardFrame(page).locator('label[for="in-cardNumber"]').filter({ hasText: "Număr card" }).waitFor()
    await screenshot(page, "widget-card-locale-ro")
    await context.close()
  })

  it("pays through the React component, which follows the shop's language", async () => {
    const { page, context } = await shop().checkout({ react: true })
    await cardFrame(page).locator("#in-cardNumber").waitFor()
    await page.locator("#shop-locale").selectOption("sv-SE")
    await cardFrame(page).locator('label[for="in-cardNumber"]').filter({ hasText: "Kortnummer" }).waitFor()
    await payByCard(page, s.sandbox.testCard("frictionless_approved"), "Betala")
    await widgetState(page, "done")
    expect(await page.locator(".pgs-status").textContent()).toBe("Betalningen är godkänd. Tack för din beställning!")
    expect((await orderOf(page))?.id).toMatch(/^order_/)
    await screenshot(page, "widget-card-react-sv")
    await context.close()
  })

  it("asks nothing customer-only for a guest: no /store/pgs/saved-cards request and no console error through the checkout", async () => {
    const { page, context } = await shop().checkout()
    // Watched from a fresh load of the page: the shop's own listeners are set only as it opens.
    const requests: string[] = []
    const errors: string[] = []
    page.on("request", (r) => requests.push(r.url()))
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()))
    page.on("pageerror", (e) => errors.push(e.message))
    await page.reload()
    await payByCard(page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(page, "done")
    expect((await orderOf(page))?.id).toMatch(/^order_/)
    expect(requests.some((u) => u.includes("/store/pgs/payment-methods"))).toBe(true) // the widget did ask the store
    expect(requests.filter((u) => u.includes("/store/pgs/saved-cards"))).toEqual([])
    expect(errors).toEqual([])
    await context.close()
  })

  it("asks in words, in the shopper's language, to let the shop charge the saved card later; saves it with that consent, pays with it next time, and deletes it", async () => {
    const { token, customer } = await s.registerCustomer()
    const first = await s.createCart({ customerToken: token })
    const wallet = walletPayment(s.sandbox.testCard("frictionless_approved"))
    const one = await shop().open({ cartId: first.id, token, walletToken: wallet.token })
    await one.page.getByLabel("Wallet on this device").check()
    // This store asks the consent (savedCardConsent): the checkbox says so, naming the shop, in each language.
    const label = one.page.locator(".pgs-check")
    for (const [locale, words] of [
      ["sv-SE", "Spara kortet och låt Medusa Store debitera det för belopp jag fortfarande är skyldig för mina beställningar"],
      ["ro-RO", "Salvează acest card și permite ca Medusa Store să îl debiteze cu sumele pe care încă le datorez pentru comenzile mele"],
      ["bs-BA", "Sačuvaj ovu karticu i dozvoli da Medusa Store s nje naplati iznose koje još dugujem za svoje narudžbe"],
      ["en-US", CONSENT_WORDS],
    ]) {
      await one.page.locator("#shop-locale").selectOption(locale)
      await label.filter({ hasText: words }).waitFor()
      if (locale === "sv-SE") await screenshot(one.page, "widget-card-save-consent-sv")
    }
    await one.page.getByLabel(CONSENT_WORDS).check()
    await screenshot(one.page, "widget-card-save-consent")
    await one.page.getByRole("button", { name: "Pay" }).press("Enter")
    await widgetState(one.page, "done")
    await screenshot(one.page, "widget-card-saved")
    await one.context.close()

    // The gateway's tokenization webhook stores the card, with the consent as the shopper read it; then they see it.
    const stored = await waitFor(async () => (await s.container().resolve<any>("pgs").listPgsSavedCards({ customer_id: customer.id }))[0], {
      what: "the saved card",
      timeoutMs: 15_000,
    })
    expect(stored.merchant_consent_at).toBeInstanceOf(Date)
    expect(stored.merchant_consent).toEqual({ wording: "pgs-widget-1", locale: "en-US", text: CONSENT_WORDS })
    expect(s.sandbox.sandbox.context.store.storedCards.get(stored.payment_method_id)!.tokenize_for).toBe("MERCHANT_INITIATED_TRANSACTION")
    const second = await s.createCart({ customerToken: token })
    const two = await shop().open({ cartId: second.id, token })
    const saved = two.page.getByRole("radio", { name: /VISA ending in 1000, expires/ })
    await saved.waitFor()
    expect(await saved.isChecked()).toBe(true) // a saved card is offered first
    await two.page.getByRole("button", { name: "Pay" }).press("Enter")
    await widgetState(two.page, "done")
    const session = await currentSession(s, second.id)
    expect(sessionFields(session.data).payment_method).toMatchObject({ type: "saved_card", last_4: "1000" })
    expect(await chargesFor(s, sessionFields(session.data).reference)).toHaveLength(1)
    await screenshot(two.page, "widget-card-paid-with-saved-card")
    await two.context.close()

    const third = await s.createCart({ customerToken: token })
    const three = await shop().open({ cartId: third.id, token })
    await three.page.getByRole("button", { name: /Delete VISA ending in 1000/ }).press("Enter")
    await three.page.locator(".pgs-status").filter({ hasText: "Card deleted" }).waitFor()
    expect(await three.page.getByRole("radio", { name: /VISA ending in 1000/ }).count()).toBe(0)
    await screenshot(three.page, "widget-card-saved-card-deleted")
    await three.context.close()
  })

  // The card row while the gateway opens the card session (held 2 s here) and after its fields mount, at a phone's and
  // a desktop's width, light and dark: a placeholder of the fields' height, busy for assistive technology, then the
  // fields in its place with nothing on the page moved (the browser's own layout-shift record, not a guess).
  for (const [width, theme] of [[360, "light"], [1280, "light"], [360, "dark"], [1280, "dark"]] as const)
    it(`keeps the card row's height with a placeholder while the fields load, then shows them in its place without moving anything (${width} px, ${theme})`, async () => {
      await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/sessions", kind: "latency", latency_ms: 2000, count: 1 })
      try {
        // Tall enough for the whole page: a viewport capture, not a full-page one (that relayouts the gateway's frame).
        const { page, context } = await shop().checkout({ appearance: { theme } }, {}, { width, height: 1200 })
        const placeholder = page.locator('.pgs-card[aria-busy="true"]')
        await placeholder.waitFor({ timeout: 15_000 })
        // From here on, every layout shift on the page is recorded.
        await page.evaluate(() => {
          const w = window as any
          w.shopShift = 0
          w.shopShifts = new PerformanceObserver((l) => l.getEntries().forEach((e: any) => (w.shopShift += e.value)))
          w.shopShifts.observe({ type: "layout-shift" })
        })
        const before = { row: (await page.locator(".pgs-row.pgs-open").boundingBox())!, pay: (await page.locator(".pgs-pay").boundingBox())! }
        expect(await placeholder.getAttribute("aria-busy")).toBe("true")
        // Ready means ready: Pay cannot be pressed until the card number takes typing.
        expect(await page.locator(".pgs-pay").isDisabled()).toBe(true)
        await page.screenshot({ path: path.join(SHOTS, `widget-card-loading-${width}-${theme}.png`) })
        await cardFrame(page).locator("input").first().waitFor({ timeout: 30_000 })
        await page.locator('.pgs-card:not([aria-busy="true"]) iframe').waitFor({ timeout: 30_000 })
        await page.locator(".pgs-pay:not([disabled])").waitFor({ timeout: 30_000 })
        expect(await cardFrame(page).locator("#in-cardNumber").isEditable()).toBe(true)
        const after = { row: (await page.locator(".pgs-row.pgs-open").boundingBox())!, pay: (await page.locator(".pgs-pay").boundingBox())! }
        const shift = await page.evaluate(() => {
          const w = window as any
          w.shopShifts.takeRecords().forEach((e: any) => (w.shopShift += e.value))
          return w.shopShift as number
        })
        await page.screenshot({ path: path.join(SHOTS, `widget-card-loaded-${width}-${theme}.png`) })
        expect(Math.abs(after.row.height - before.row.height)).toBeLessThanOrEqual(2)
        expect(Math.abs(after.pay.y - before.pay.y)).toBeLessThanOrEqual(2)
        expect(shift).toBeLessThan(0.01)
        await context.close()
      } finally {
        await s.sandbox.control("DELETE", "/_sandbox/faults")
      }
    })

  it("mounts a fresh card session when the gateway no longer knows the cart's one (lost or expired), and the shopper only pays", async () => {
    const first = await shop().checkout()
    await cardFrame(first.page).locator("input").first().waitFor({ timeout: 30_000 })
    const lost = await currentSession(s, first.cart.id)
    await first.context.close()
    // The gateway forgets the session (a restart, or its expiry): the shopper comes back to the same cart.
    expect(s.sandbox.sandbox.context.store.sessions.delete(lost.data.gateway_session_id)).toBe(true)
    const { page, context } = await shop().open({ cartId: first.cart.id })
    await payByCard(page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(page, "done")
    const fresh = await currentSession(s, first.cart.id)
    expect(fresh.data.gateway_session_id).not.toBe(lost.data.gateway_session_id)
    expect(await chargesFor(s, sessionFields(fresh.data).reference)).toHaveLength(1)
    await context.close()
  })

  it("gives the shopper fresh card fields when the gateway forgets the session while they pay, and the next Pay is charged once", async () => {
    const { cart, page, context } = await shop().checkout()
    await cardFrame(page).locator("input").first().waitFor({ timeout: 30_000 })
    const lost = await currentSession(s, cart.id)
    // The gateway forgets the session under the open fields (its restart, or the session's expiry), then the shopper pays.
    expect(s.sandbox.sandbox.context.store.sessions.delete(lost.data.gateway_session_id)).toBe(true)
    await fillCardFields(page, s.sandbox.testCard("frictionless_approved"))
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await waitFor(async () => ((await alertText(page)) === "The payment session expired. Please start again." ? true : null), { what: "the note to pay again" })
    await waitFor(async () => ((await currentSession(s, cart.id)).data.gateway_session_id !== lost.data.gateway_session_id ? true : null), { what: "a fresh card session" })
    await cardFrame(page).locator("input").first().waitFor({ timeout: 30_000 })
    await screenshotCardRow(page, "widget-card-session-renewed")
    await payByCard(page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(page, "done")
    const paid = await currentSession(s, cart.id)
    expect(paid.data.gateway_session_id).not.toBe(lost.data.gateway_session_id)
    expect(await chargesFor(s, sessionFields(paid.data).reference)).toHaveLength(1)
    expect(await chargesFor(s, sessionFields(lost.data).reference)).toHaveLength(0)
    await context.close()
  })

  it("lets two tabs opened at once on a cart without a payment collection both reach the card fields (the second uses the first's collection)", async () => {
    const cart = await s.createCart()
    const tabs = await Promise.all([shop().open({ cartId: cart.id }), shop().open({ cartId: cart.id })])
    for (const tab of tabs) {
      await cardFrame(tab.page).locator("input").first().waitFor({ timeout: 30_000 })
      expect(await alertText(tab.page)).toBe("")
    }
    await Promise.all(tabs.map((tab) => tab.context.close()))
  })

  it("moves the card fields onto the cart's current session when another tab replaced it, so the payment is never made on a retired one", async () => {
    const { cart, page, context } = await shop().checkout()
    await cardFrame(page).locator("input").first().waitFor({ timeout: 30_000 })
    const mine = await currentSession(s, cart.id)
    await s.initiatePaymentSession(cart.id, "pp_pgs_pgs") // another tab starts the card anew: Medusa replaces the session
    await fillCardFields(page, s.sandbox.testCard("frictionless_approved"))
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await waitFor(async () => ((await alertText(page)) === "The payment session expired. Please start again." ? true : null), { what: "the note to pay again" })
    expect(await chargesFor(s, sessionFields(mine.data).reference)).toHaveLength(0) // nothing paid on the replaced session
    await payByCard(page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(page, "done")
    const current = await currentSession(s, cart.id)
    expect(await chargesFor(s, sessionFields(current.data).reference)).toHaveLength(1)
    await context.close()
  })

  it("shows a second tab the order the first tab placed when its shopper pays too, charging once", async () => {
    const cart = await s.createCart()
    const ledgerSize = async () => ((await s.sandbox.control("GET", "/_sandbox/ledger")).body.entries as { replay: boolean }[]).filter((e) => !e.replay).length
    const before = await ledgerSize()
    const one = await shop().open({ cartId: cart.id })
    await cardFrame(one.page).locator("input").first().waitFor({ timeout: 30_000 })
    const two = await shop().open({ cartId: cart.id })
    await cardFrame(two.page).locator("input").first().waitFor({ timeout: 30_000 })
    await payByCard(one.page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(one.page, "done")
    const order = await orderOf(one.page)
    await payByCard(two.page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(two.page, "done")
    expect((await orderOf(two.page))?.id).toBe(order!.id)
    expect((await ledgerSize()) - before).toBe(1) // one transaction at the gateway
    await screenshot(two.page, "widget-card-second-tab-shows-order")
    await Promise.all([one.context.close(), two.context.close()])
  })

  it("tells the shopper in their words that card payments are unavailable when the gateway is away, instead of 'Something went wrong'", async () => {
    await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/sessions", kind: "status", status: 503, count: 20 })
    try {
      const { page, context } = await shop().checkout()
      await waitFor(async () => ((await alertText(page))?.includes("unavailable right now") ? true : null), { what: "the unavailable message", timeoutMs: 60_000 })
      expect(await alertText(page)).toBe("Payments with this method are unavailable right now. Please try another method or again in a few minutes.")
      await screenshot(page, "widget-card-gateway-unavailable")
      await context.close()
    } finally {
      await s.sandbox.control("DELETE", "/_sandbox/faults")
    }
  })

  describe("under the Content-Security-Policy docs/widget.md gives storefronts", () => {
    const policy = () => widgetPolicy({ backend: s.medusaUrl, gateway: s.sandbox.url })
    /** The shop's checkout page under `csp`, recording what Chromium reports from its first load on. */
    const strictShop = async (csp: Map<string, string[]>) => {
      let violations!: Violations
      const opened = await shop().checkout({ csp: shopHeader(csp) }, {}, undefined, async (page) => void (violations = await recordViolations(page)))
      return { ...opened, violations }
    }
    /** The order placed with nothing refused on the way; a screenshot of the paid state. */
    const paidWithNothingRefused = async (o: { page: Page; context: BrowserContext; violations: Violations }, shot: string) => {
      await widgetState(o.page, "done")
      expect((await orderOf(o.page))?.id).toMatch(/^order_/)
      expect(await o.violations.events()).toEqual([])
      expect(o.violations.console).toEqual([])
      await screenshot(o.page, shot)
      await o.context.close()
    }

    it("pays a card in the embedded fields without a challenge, nothing refused", async () => {
      const shopPage = await strictShop(policy())
      // The shadow root's own styles apply (the Pay button in the theme's primary colour).
      expect(await shopPage.page.locator(".pgs-pay").evaluate((b) => getComputedStyle(b).backgroundColor)).toBe("rgb(36, 73, 214)")
      await payByCard(shopPage.page, s.sandbox.testCard("frictionless_approved"))
      await paidWithNothingRefused(shopPage, "widget-card-csp-frictionless-paid")
    })

    it("runs the 3-D Secure challenge in the card frame and places the order, nothing refused", async () => {
      const shopPage = await strictShop(policy())
      await payByCard(shopPage.page, s.sandbox.testCard("redirect_interactive"))
      await press(cardFrame(shopPage.page).frameLocator('iframe[name="pgs-redirect"]').getByRole("button", { name: /Approve/ }))
      await paidWithNothingRefused(shopPage, "widget-card-csp-3ds-paid")
    })

    it("runs the Direct API fingerprint and challenge in the widget under the docs' additions, nothing refused; without them, refused", async () => {
      const direct = async (csp: Map<string, string[]>) => {
        const cart = await s.createCart()
        let violations!: Violations
        const opened = await shop().open({
          cartId: cart.id,
          walletToken: walletPayment(PLAIN_VISA, "PAN_ONLY").token,
          sessionData: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" },
          csp: shopHeader(csp),
        }, undefined, async (page) => void (violations = await recordViolations(page)))
        await opened.page.getByLabel("Wallet on this device").check()
        await opened.page.getByRole("button", { name: "Pay" }).press("Enter")
        return { ...opened, violations }
      }
      const paid = await direct(widgetPolicy({ backend: s.medusaUrl, gateway: s.sandbox.url, directApi: true }))
      await press(paid.page.frameLocator("iframe.pgs-acs").getByRole("button", { name: /Approve/ }))
      await paidWithNothingRefused(paid, "widget-card-csp-direct-3ds-paid")

      const refused = await direct(policy()) // the embedded fields' policy alone: the method form to the ACS is refused
      const seen = await waitFor(async () => (await refused.violations.events()).find((v) => v.directive === "form-action") ?? null, { what: "a form-action violation" })
      expect(seen.blocked).toContain(new URL(s.sandbox.url).host)
      await refused.context.close()
    })

    // Not vacuous: take one source out and Chromium reports it, so a widget change needing more fails the tests above.
    // `reported`: the effective directive Chromium names for what was refused.
    const sandboxOrigin = () => new URL(s.sandbox.url).origin
    it.each([
      ["script-src", "script-src-elem", "the gateway's embedded-fields.js", () => without(policy(), "script-src", sandboxOrigin())],
      ["frame-src", "frame-src", "the gateway's card frame", () => without(policy(), "frame-src", sandboxOrigin())],
      ["connect-src", "connect-src", "the store API", () => without(policy(), "connect-src", new URL(s.medusaUrl).origin)],
      ["style-src", "style-src-elem", "the shadow root's <style> elements", () => without(policy(), "style-src", "'unsafe-inline'")],
    ])("reports a violation when %s lacks what the docs put there (%s, %s)", async (directive, reported, _what, stricter) => {
      const { context, violations } = await strictShop(stricter())
      const seen = await waitFor(async () => (await violations.events()).find((v) => v.directive === reported) ?? null, { what: `a ${reported} violation` })
      expect(seen.blocked).toMatch(directive === "style-src" ? /^inline$/ : /^http:\/\/(localhost|127\.0\.0\.1)/)
      expect(violations.console.some((m) => m.includes(directive))).toBe(true)
      await context.close()
    })
  })
}, { env: { PGS_SAVED_CARD_CONSENT: "true" } })
