/**
 * The shopper's wait, counted (issue 48): on a phone every round trip to the store costs 100–300 ms, so the widget
 * keeps them off the critical path. The payment step reaches the gateway's card fields after 1 store round trip:
 * the cart's methods (with its total), the texts and the card's collection and session at once (the session route
 * answers the cart's unpaid card session again rather than reading the cart first), the gateway's script asked for as
 * soon as the methods name it. Pay reaches the order after 1: the cart read that guards against another tab (a
 * request the browser sends without a CORS preflight) is read ahead as the card form turns complete, while the
 * shopper reaches for Pay, and again at Pay only when it may be stale; then the completion, which attaches the card's
 * transaction first. A redirect method's Pay reaches the bank's page after 2: the
 * session with the browser's data in one call (no cart read first: the session route refuses a completed cart), then
 * the completion, which answers the bank's address. The same for the React binding, and on the payment-collection
 * page (money after checkout: the session, then apply). Counted from Chromium's record of the page's requests
 * (round-trips.ts); nothing is timed.
 */
import path from "node:path"
import type { Page } from "playwright-core"
import { orderOwingMore } from "../http/support/order-payments"
import { currentSession } from "../http/support/checkout-direct"
import { waitFor } from "../support/sandbox"
import { sessionFields } from "../support/session-fields"
import { named, recordPreflights, recordRequests, storeRoundTrips, type RoundTrips } from "./round-trips"
import { cardFrame, chargesFor, expectFinished, fillCardFields, orderOf, payByCard, widgetState, widgetSuite } from "./widget-support"

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

  /** Online banking chosen and Pay pressed: 2 store round trips to the bank's page, these store requests each once. */
  async function payToBank(page: Page, rec: RoundTrips, requests: string[]) {
    await page.locator('input[value="pp_pgs-open-banking_pgs"]').check()
    const pressed = Date.now()
    await page.getByRole("button", { name: /^Pay/ }).press("Enter")
    await page.waitForURL(/\/provider\//, { timeout: 30_000 })
    const pay = storeRoundTrips(rec.since(pressed))
    expect(pay.requests).toEqual(requests)
    expect(pay.storeChain).toBe(2)
    expect(pay.onCriticalPath).toBeLessThanOrEqual(2)
  }

  /** The pay check the complete card form reads ahead, answered (the shopper's pause before Pay is longer than its round trip). */
  const payCheckReadAhead = (rec: RoundTrips, since: number) =>
    waitFor(() => rec.since(since).find((r) => named(r) === "GET /pgs/carts/cart_…/pay-check"), { what: "the pay check read ahead", timeoutMs: 30_000 })

  for (const react of [false, true])
    it(`reaches the card fields in 1 store round trip and the order in 1 after Pay (the pay check read ahead as the card form completed), no preflight before the gateway's pay, each request once (${react ? "React binding" : "mountCheckout"})`, async () => {
      const { page, context, rec, start } = await checkout(react)
      await cardReady(page)
      await page.screenshot({ path: path.join(SHOTS, `widget-round-trips-ready${react ? "-react" : ""}.png`) })

      const step = storeRoundTrips(rec.since(start))
      expect(step.requests).toEqual(["GET /store/pgs/payment-methods", "POST /store/pgs/carts/cart_…/payment-sessions"])
      expect(step.storeChain).toBe(1)
      expect(step.onCriticalPath).toBe(1)
      // The gateway's script was asked for before the session's answer came, not after it.
      const all = rec.since(start)
      const script = all.find((r) => r.path.endsWith("/embedded-fields.js"))!
      const session = all.find((r) => r.path.endsWith("/payment-sessions"))!
      expect(script.start).toBeLessThan(session.end)

      const typing = Date.now()
      await fillCardFields(page, s.sandbox.testCard("frictionless_approved"))
      // Read ahead, once, as the form turned complete (the test waits for its answer: a shopper pauses longer).
      const ahead = await payCheckReadAhead(rec, typing)
      const preflights = await recordPreflights(page)
      const pressed = Date.now()
      await page.getByRole("button", { name: /^Pay/ }).press("Enter")
      await widgetState(page, "done")
      expect((await orderOf(page))?.id).toMatch(/^order_/)
      const pay = storeRoundTrips(rec.since(pressed))
      expect(pay.requests).toEqual(["POST /store/carts/cart_…/complete"])
      expect(pay.storeChain).toBe(1)
      expect(pay.onCriticalPath).toBe(1)
      // Read once in the whole checkout, before Pay.
      expect(rec.since(start).filter((r) => named(r) === "GET /pgs/carts/cart_…/pay-check")).toEqual([ahead])
      // Nothing of the store's before the gateway's pay: no preflight's round trip ahead of the payment.
      const gatewayPay = rec.since(pressed).find((r) => r.kind === "gateway" && r.method === "POST" && r.path.endsWith("/pay"))!
      expect(gatewayPay).toBeDefined()
      expect(rec.since(pressed).filter((r) => r.kind === "store" && r.start < gatewayPay.start).map(named)).toEqual([])
      expect(preflights.since(pressed).filter((p) => p.start < gatewayPay.start).map((p) => p.url)).toEqual([])
      // (The recorder sees preflights: the completion's, a /store call, comes after the gateway's pay.)
      expect(preflights.since(pressed).map((p) => new URL(p.url).pathname)).toEqual([expect.stringMatching(/^\/store\/carts\/cart_\w+\/complete$/)])
      await page.screenshot({ path: path.join(SHOTS, `widget-round-trips-paid${react ? "-react" : ""}.png`) })
      await expectFinished(page)
      await context.close()
    })

  /**
   * Tab "two" fills in the card (its pay check is read ahead, the cart still open), then the shopper pays the same cart
   * in tab "one"; `hidden`: tab two's page went to the background meanwhile and came back. (Headless Chromium keeps
   * every tab visible, so the page is told what a browser tells it when its tab goes to the background and returns.)
   */
  async function paidElsewhereAfterReadAhead(hidden: boolean) {
    const cart = await s.createCart()
    const ledgerSize = async () => ((await s.sandbox.control("GET", "/_sandbox/ledger")).body.entries as { replay: boolean }[]).filter((e) => !e.replay).length
    const before = await ledgerSize()
    let rec!: RoundTrips
    const two = await shop().open({ cartId: cart.id }, { width: 520, height: 1100 }, (p) => (rec = recordRequests(p, { store: s.medusaUrl, gateway: s.sandbox.url })))
    await cardReady(two.page)
    const typing = Date.now()
    await fillCardFields(two.page, s.sandbox.testCard("frictionless_approved"))
    await payCheckReadAhead(rec, typing) // read while the cart was still open
    const visibility = (state: string) =>
      two.page.evaluate((state) => {
        Object.defineProperty(document, "visibilityState", { value: state, configurable: true })
        document.dispatchEvent(new Event("visibilitychange", { bubbles: true })) // as the browser fires it
      }, state)
    if (hidden) await visibility("hidden")
    const one = await shop().open({ cartId: cart.id })
    await cardFrame(one.page).locator("input").first().waitFor({ timeout: 30_000 })
    await fillCardFields(one.page, s.sandbox.testCard("frictionless_approved"))
    await one.page.getByRole("button", { name: /^Pay/ }).press("Enter")
    await widgetState(one.page, "done")
    if (hidden) await visibility("visible")
    return { two, rec, order: (await orderOf(one.page))!, charged: async () => (await ledgerSize()) - before, close: () => Promise.all([one.context.close(), two.context.close()]) }
  }

  it("reads the pay check again at Pay when the page was hidden after the card form was complete, and shows the order another tab placed meanwhile, charging once", async () => {
    const { two, rec, order, charged, close } = await paidElsewhereAfterReadAhead(true)
    const pressed = Date.now()
    await two.page.getByRole("button", { name: /^Pay/ }).press("Enter")
    await widgetState(two.page, "done")
    expect((await orderOf(two.page))?.id).toBe(order.id)
    // The pay check again (the one read ahead predates the other tab's order), then the completion answering the order.
    expect(storeRoundTrips(rec.since(pressed)).requests).toEqual(["GET /pgs/carts/cart_…/pay-check", "POST /store/carts/cart_…/complete"])
    expect(await charged()).toBe(1) // one payment at the gateway: this tab paid nothing
    await close()
  })

  it("reads the cart again at Pay when the shopper changed it on the page after the card form was complete (a promotion code): the fields move onto the new session, nothing is paid on the retired one", async () => {
    const cart = await s.createCart()
    let rec!: RoundTrips
    const { page, context } = await shop().open({ cartId: cart.id }, { width: 520, height: 1100 }, (p) => (rec = recordRequests(p, { store: s.medusaUrl, gateway: s.sandbox.url })))
    await cardReady(page)
    const typing = Date.now()
    await fillCardFields(page, s.sandbox.testCard("frictionless_approved"))
    await payCheckReadAhead(rec, typing)
    const retired = await currentSession(s, cart.id)
    // The shopper applies a promotion code in the storefront's summary: a tap on the page, then the storefront's own
    // cart update, which changes the total (here: the line's quantity), so Medusa replaces the card session.
    await page.getByRole("heading", { name: "Payment" }).click()
    const item = cart.items[0]
    await s.api.post(`/store/carts/${cart.id}/line-items/${item.id}`, { quantity: 2 }, { headers: s.storeHeaders })
    const pressed = Date.now()
    await page.getByRole("button", { name: /^Pay/ }).press("Enter")
    await waitFor(async () => ((await page.locator(".pgs-error").textContent()) === "The payment session expired. Please start again." ? true : null), { what: "the note to pay again" })
    expect(storeRoundTrips(rec.since(pressed)).requests).toContain("GET /pgs/carts/cart_…/pay-check")
    expect(await chargesFor(s, sessionFields(retired.data).reference)).toHaveLength(0)
    const current = await currentSession(s, cart.id)
    expect(current.id).not.toBe(retired.id)
    await payByCard(page, s.sandbox.testCard("frictionless_approved"))
    await widgetState(page, "done")
    expect((await orderOf(page))?.id).toMatch(/^order_/)
    expect(await chargesFor(s, sessionFields(current.data).reference)).toHaveLength(1)
    await context.close()
  })

  it("keeps a read ahead for one Pay and drops it when the cart may have changed: a tap, key, choice or form outside the widget (none read ahead again until Pay), the page hidden, the card session changed, a failed read, 10 s gone", async () => {
    const cart = await s.createCart()
    const { page, context } = await shop().open({ cartId: (await s.createCart()).id })
    await cardReady(page)
    // The page's timers from here on run on a clock only the test moves (the page's own widget sits idle meanwhile).
    await page.clock.install()
    await page.clock.pauseAt(Date.now() + 1_000)
    // The pay check's reads of the test's cart: sent, and answered (or failed).
    const isRead = (url: string) => url.includes(`/pgs/carts/${cart.id}/pay-check`)
    let sent = 0
    let settled = 0
    let storeReadsFailed = 0
    page.on("request", (r) => void (isRead(r.url()) && sent++))
    page.on("requestfinished", (r) => void (isRead(r.url()) && settled++))
    page.on("requestfailed", (r) => {
      if (isRead(r.url())) settled++
      else if (r.url().endsWith(`/store/carts/${cart.id}`)) storeReadsFailed++
    })
    const settle = () => waitFor(() => (settled === sent ? true : null), { what: "the pay check's answer" })
    const connection = { baseUrl: s.medusaUrl, publishableKey: s.seed.publishableKey }
    // The widget's own pay check (dist/pay-check.js), on a cart of the test's, its host the page's widget. Source
    // text, not a function: the test's compiler would rewrite a function's import().
    await page.evaluate(`(async () => {
      const [{ payCheck }, { connect }] = await Promise.all([import("/widget/pay-check.js"), import("/widget/index.js")])
      window.check = payCheck(connect(${JSON.stringify(connection)}), ${JSON.stringify(cart.id)}, document.getElementById("payment"))
    })()`)
    const call = (what: "complete" | "drop") => page.evaluate((what) => void (window as any).check[what](), what)
    const take = () => page.evaluate(async () => ((await (window as any).check.take()) as { id: string }).id)
    /** The reads Pay makes after the card form turned complete (its read ahead answered) and `step`. */
    const readsAtPay = async (step: () => Promise<unknown>) => {
      const ahead = sent
      await call("complete")
      await waitFor(() => (sent > ahead ? true : null), { what: "the read ahead" })
      await settle()
      const before = sent
      await step()
      expect(await take()).toBe(cart.id)
      await settle()
      return sent - before
    }
    expect(await readsAtPay(async () => {})).toBe(0) // Pay took the read ahead
    const once = sent
    expect(await take()).toBe(cart.id)
    expect(sent - once).toBe(1) // it served one Pay: the next reads anew
    expect(await readsAtPay(() => call("complete"))).toBe(0) // one read ahead at a time
    // A tap in the widget (its legend, in its shadow root, as Pay is) is the widget's own.
    expect(await readsAtPay(() => page.locator("legend").click())).toBe(0)
    const heading = page.getByRole("heading", { name: "Payment" })
    expect(await readsAtPay(() => heading.click())).toBe(1)
    expect(await readsAtPay(() => page.getByLabel("Language").press("ArrowDown"))).toBe(1)
    expect(await readsAtPay(() => page.getByLabel("Language").selectOption("en-US"))).toBe(1)
    expect(await readsAtPay(() => page.evaluate(() => document.dispatchEvent(new Event("visibilitychange", { bubbles: true }))))).toBe(1)
    expect(await readsAtPay(() => call("drop"))).toBe(1)
    expect(await readsAtPay(() => page.clock.fastForward(9_000))).toBe(0)
    expect(await readsAtPay(() => page.clock.fastForward(10_001))).toBe(1)
    // After a tap outside, the form completing again reads nothing ahead (the storefront's change may be on its way):
    // Pay reads, and after that Pay the next read ahead is made again.
    // (Counted as the page calls fetch: Chromium's request events may come after the call that made them.)
    await page.evaluate(() => {
      const fetch = window.fetch
      ;(window as any).payChecks = 0
      window.fetch = (input, init) => (String(input).includes("/pay-check") && (window as any).payChecks++, fetch(input, init))
    })
    const fetched = () => page.evaluate(() => (window as any).payChecks as number)
    await heading.click()
    await call("complete")
    expect(await fetched()).toBe(0)
    expect(await take()).toBe(cart.id)
    expect(await fetched()).toBe(1)
    await settle()
    expect(await readsAtPay(async () => {})).toBe(0)
    // A read ahead that fails (the pay check, then the store API's cart) is dropped: the next one is read anew.
    const lost = /\/pgs\/carts\/[^/]+\/pay-check$|\/store\/carts\/cart_[^/?]+$/
    await page.route(lost, (route) => route.abort("connectionfailed"))
    const failedAt = sent
    await call("complete")
    await waitFor(() => (sent > failedAt ? true : null), { what: "the read ahead" })
    await settle()
    await waitFor(() => (storeReadsFailed === 1 ? true : null), { what: "the store API's read, failed too" })
    await page.unroute(lost)
    expect(await readsAtPay(async () => {})).toBe(0) // its complete() read again, and Pay took that read
    expect(sent - failedAt).toBe(2)
    await context.close()
  })

  it("reads the cart from the store API at Pay when the backend has no pay check (an older plugin), and still places the order", async () => {
    const cart = await s.createCart()
    let rec!: RoundTrips
    const { page, context } = await shop().open({ cartId: cart.id }, { width: 520, height: 1100 }, (p) => {
      rec = recordRequests(p, { store: s.medusaUrl, gateway: s.sandbox.url })
      // What a backend without the route answers: Express's own 404 page (made readable: only its status decides).
      void p.route(/\/pgs\/carts\/[^/]+\/pay-check$/, (route) =>
        route.fulfill({ status: 404, body: "Cannot GET", contentType: "text/html", headers: { "access-control-allow-origin": "*" } }),
      )
    })
    await cardReady(page)
    const typing = Date.now()
    await fillCardFields(page, s.sandbox.testCard("frictionless_approved"))
    // Read ahead as the form turned complete: the pay check (answered 404 here), then the store API's cart.
    await waitFor(() => rec.since(typing).find((r) => named(r) === "GET /store/carts/cart_…"), { what: "the store API's cart read ahead", timeoutMs: 30_000 })
    expect(storeRoundTrips(rec.since(typing)).requests).toEqual(["GET /pgs/carts/cart_…/pay-check", "GET /store/carts/cart_…"])
    const pressed = Date.now()
    await page.getByRole("button", { name: /^Pay/ }).press("Enter")
    await widgetState(page, "done")
    expect((await orderOf(page))?.id).toMatch(/^order_/)
    expect(storeRoundTrips(rec.since(pressed)).requests).toEqual(["POST /store/carts/cart_…/complete"])
    await context.close()
  })

  it("tells the shopper card payments are unavailable when the session cannot be made, with no uncaught error in the storefront's page", async () => {
    await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/sessions", kind: "status", status: 503, count: 20 })
    try {
      const cart = await s.createCart()
      const errors: string[] = []
      // A development storefront (Next's overlay) shows every uncaught error to the developer as an issue of theirs.
      const { page, context } = await shop().open({ cartId: cart.id }, { width: 520, height: 1100 }, (p) => void p.on("pageerror", (e) => errors.push(e.message)))
      await page.locator(".pgs-error", { hasText: "unavailable right now" }).waitFor({ timeout: 60_000 })
      await widgetState(page, "idle")
      expect(errors).toEqual([])
      await context.close()
    } finally {
      await s.sandbox.control("DELETE", "/_sandbox/faults")
    }
  })

  it("tells the shopper something went wrong, and charges nothing, when the cart cannot be read at Pay (the network gone)", async () => {
    const cart = await s.createCart()
    const ledgerSize = async () => ((await s.sandbox.control("GET", "/_sandbox/ledger")).body.entries as unknown[]).length
    const before = await ledgerSize()
    const { page, context } = await shop().open({ cartId: cart.id }, { width: 520, height: 1100 })
    await cardReady(page)
    // Both reads Pay may make (the pay check, then the store API's cart) fail as a lost connection does: ahead, as the
    // form turns complete, and at Pay.
    await page.route(/\/pgs\/carts\/[^/]+\/pay-check$|\/store\/carts\/cart_[^/?]+$/, (route) => route.abort("connectionfailed"))
    await fillCardFields(page, s.sandbox.testCard("frictionless_approved"))
    await page.getByRole("button", { name: /^Pay/ }).press("Enter")
    await page.locator(".pgs-error", { hasText: "Something went wrong. Please try again." }).waitFor({ timeout: 30_000 })
    await widgetState(page, "idle") // Pay can be pressed again
    // Nothing went to the gateway, and the cart is no order.
    expect((await ledgerSize()) - before).toBe(0)
    expect((await s.api.get(`/store/carts/${cart.id}?fields=completed_at`, { headers: s.storeHeaders })).data.cart.completed_at).toBeNull()
    await context.close()
  })

  for (const react of [false, true])
    it(`reaches a redirect method's page in 2 store round trips after Pay: the session with the browser's data, then the completion (${react ? "React binding" : "mountCheckout"})`, async () => {
      const { page, context, rec } = await checkout(react)
      await cardReady(page) // the shopper sees the card first, then chooses online banking
      await payToBank(page, rec, ["POST /store/carts/cart_…/complete", "POST /store/pgs/carts/cart_…/payment-sessions"])
      await context.close()
    })

  it("paints in English, reading the methods once, when the shopper's language pack cannot be loaded", async () => {
    const cart = await s.createCart()
    let rec!: RoundTrips
    const start = Date.now()
    const { page, context } = await shop().open({ cartId: cart.id, locale: "sv-SE" }, { width: 520, height: 1100 }, (p) => {
      rec = recordRequests(p, { store: s.medusaUrl, gateway: s.sandbox.url })
      void p.route(/\/sv-SE-[^/]*\.js$/, (route) => route.abort("connectionfailed"))
    })
    await cardReady(page)
    await expect(page.getByRole("button", { name: /^Pay/ }).textContent()).resolves.toMatch(/^Pay /)
    expect(storeRoundTrips(rec.since(start)).requests).toEqual(["GET /store/pgs/payment-methods", "POST /store/pgs/carts/cart_…/payment-sessions"])
    await context.close()
  })

  it("reaches a redirect method's page in 2 store round trips after Pay on the payment-collection page: the session with the browser's data, then apply", async () => {
    const { orderId, collectionId } = await orderOwingMore(s)
    const connection = { baseUrl: s.medusaUrl, publishableKey: s.seed.publishableKey, collectionId, orderId }
    // The shop's page behind "Copy payment link", in place of its checkout page (the page's own route comes first).
    const collectionPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"></head><body><div id="payment"></div>
<script type="module">import { mountCollectionPayment } from "/widget/collection.js"; mountCollectionPayment("#payment", ${JSON.stringify(connection)})</script></body></html>`
    let rec!: RoundTrips
    const { page, context } = await shop().open({ cartId: "" }, { width: 520, height: 1100 }, (p) => {
      rec = recordRequests(p, { store: s.medusaUrl, gateway: s.sandbox.url })
      void p.route(`${shop().storeUrl}/checkout`, (route) => route.fulfill({ body: collectionPage, contentType: "text/html" }))
    })
    await cardReady(page)
    await payToBank(page, rec, ["POST /store/pgs/payment-collections/pay_col_…/apply", "POST /store/pgs/payment-collections/pay_col_…/payment-sessions"])
    await context.close()
  })
})
