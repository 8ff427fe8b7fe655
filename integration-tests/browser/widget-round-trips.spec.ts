/**
 * The shopper's wait, counted (issue 48): on a phone every round trip to the store costs 100–300 ms, so the widget
 * keeps them off the critical path. The payment step reaches the gateway's card fields after at most 2 store round
 * trips (the cart, its methods and the texts at once; then the collection and session in one call, with the
 * gateway's script asked for beside it), and Pay reaches the order after at most 2 (the cart read that guards
 * against another tab; then the completion, which attaches the card's transaction first). The same for the React
 * binding. Counted from Chromium's record of the page's requests (round-trips.ts); nothing is timed.
 */
import path from "node:path"
import type { Page } from "playwright-core"
import { recordRequests, storeRoundTrips, type RoundTrips } from "./round-trips"
import { cardFrame, fillCardFields, orderOf, widgetState, widgetSuite } from "./widget-support"

const SHOTS = path.resolve(__dirname, "../../artifacts/screenshots")

widgetSuite("storefront widget: round trips on the shopper's critical path", (s, shop) => {
  /** The shop's checkout page with its requests recorded from before it loads. */
  async function checkout(react: boolean) {
    const cart = await s.createCart()
    let rec!: RoundTrips
    const start = Date.now()
    // Tall enough for the whole widget: a viewport capture (a full-page one relayouts the gateway's frame).
    const { page, context } = await shop().open({ cartId: cart.id, react }, { width: 520, height: 1100 }, (p) => (rec = recordRequests(p, { store: s.medusaUrl, gateway: s.sandbox.url })))
    return { cart, page, context, rec, start }
  }

  /** Ready: the card number takes typing and Pay can be pressed. */
  async function cardReady(page: Page) {
    await cardFrame(page).locator("#in-cardNumber").waitFor({ timeout: 30_000 })
    await page.locator(".pgs-pay:not([disabled])").waitFor({ timeout: 30_000 })
    expect(await cardFrame(page).locator("#in-cardNumber").isEditable()).toBe(true)
  }

  for (const react of [false, true])
    it(`reaches the card fields in 2 store round trips and the order in 2 after Pay, each request once (${react ? "React binding" : "mountCheckout"})`, async () => {
      const { page, context, rec, start } = await checkout(react)
      await cardReady(page)
      await page.screenshot({ path: path.join(SHOTS, `widget-round-trips-ready${react ? "-react" : ""}.png`) })

      const step = storeRoundTrips(rec.since(start))
      expect(step.requests).toEqual(["GET /store/carts/cart_…", "GET /store/pgs/payment-methods", "POST /store/pgs/carts/cart_…/payment-sessions"])
      expect(step.storeChain).toBe(2)
      expect(step.onCriticalPath).toBeLessThanOrEqual(2)
      // The gateway's script was asked for before the session's answer came, not after it.
      const all = rec.since(start)
      const script = all.find((r) => r.path.endsWith("/embedded-fields.js"))!
      const session = all.find((r) => r.path.endsWith("/payment-sessions"))!
      expect(script.start).toBeLessThan(session.end)

      await fillCardFields(page, s.sandbox.testCard("frictionless_approved"))
      const pressed = Date.now()
      await page.getByRole("button", { name: /^Pay/ }).press("Enter")
      await widgetState(page, "done")
      expect((await orderOf(page))?.id).toMatch(/^order_/)
      const pay = storeRoundTrips(rec.since(pressed))
      expect(pay.requests).toEqual(["GET /store/carts/cart_…", "POST /store/carts/cart_…/complete"])
      expect(pay.storeChain).toBe(2)
      expect(pay.onCriticalPath).toBeLessThanOrEqual(2)
      await page.screenshot({ path: path.join(SHOTS, `widget-round-trips-paid${react ? "-react" : ""}.png`) })
      await context.close()
    })
})
