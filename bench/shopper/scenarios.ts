/**
 * The shopper's journeys the bench times, each in a fresh browser context (a first visit: nothing cached). What comes
 * before a journey's first phase (choosing a product, the checkout page's load) runs without the emulation; from the
 * first measured action on, the page has the phone's network and CPU. Each journey answers its phases as
 * [name, start, end] on the browser's wall clock; the bench summarises them from the page's requests.
 */
import type { Browser, Page } from "playwright-core"
import { measuredPage, type MeasuredPage } from "./browser"
import type { Stack } from "./stack"
import type { storeApi } from "./store-api"

export type Phase = { name: string; start: number; end: number }
export type Journey = { name: string; floor?: boolean; run(ctx: JourneyContext, m: MeasuredPage): Promise<Phase[]> }
export type JourneyContext = {
  stack: Stack
  api: ReturnType<typeof storeApi>
  browser: Browser
  /** Orders placed by earlier journeys. */
  orders: string[]
  /** The shopper's pause between the card's last field and Pay (`--pause-ms`, default SHOPPER_PAUSE_MS). */
  pauseMs: number
}

/**
 * A shopper's thumb from the card's last digit to Pay: the keyboard closed, the button found, tapped. A person takes
 * a second or more; 0 presses Pay in the same instant, as no person can. The same for every journey, the floor too.
 */
export const SHOPPER_PAUSE_MS = 1000

const FRICTIONLESS = "4000000000001000"
const CHALLENGE = "4000000000002008"
const ORDER_PAGE = /\/order\/order_/

/** Presses `name`'s button (keyboard, as shoppers without a mouse do) and answers when the press reached the page. */
async function press(m: MeasuredPage, button: ReturnType<Page["getByRole"]>): Promise<number> {
  await button.waitFor()
  const before = Date.now()
  await button.press("Enter")
  return m.next("action", before - 1)
}

/** Types the card as a shopper does, then pauses as a shopper does before Pay (SHOPPER_PAUSE_MS: a modelled person, not a wait for the page). */
async function fillCard(ctx: JourneyContext, page: Page, frameSelector: string, number: string) {
  const frame = page.frameLocator(frameSelector)
  await frame.locator("#in-holderName").fill("Ada Lovelace")
  await frame.locator("#in-cardNumber").fill(number)
  await frame.locator("#in-expirationDate").fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`)
  await frame.locator("#in-cvv").fill("123")
  await new Promise((resolve) => setTimeout(resolve, ctx.pauseMs))
}

/** The demo storefront up to its checkout page: region, Buy, the address form filled in (as the demo's is). */
async function toDemoCheckout(m: MeasuredPage, stack: Stack) {
  await m.page.goto(stack.storefrontUrl)
  await m.page.getByLabel("Region").selectOption({ label: "Europe (EUR)" })
  await m.page.getByRole("button", { name: "Buy" }).first().click()
  await m.page.waitForURL(/\/checkout$/)
  await m.page.getByRole("button", { name: "Continue to payment" }).and(m.page.locator(":enabled")).waitFor()
}

/** "Continue to payment" → the card number typeable in the gateway's frame. */
async function paymentStep(m: MeasuredPage): Promise<Phase> {
  await m.emulate()
  const start = await press(m, m.page.getByRole("button", { name: "Continue to payment" }))
  return { name: "payment step", start, end: await m.next("card-ready", start) }
}

/** Fills the card, presses Pay; the phase ends when `until` loaded (a page or frame's DOMContentLoaded). */
async function pay(ctx: JourneyContext, m: MeasuredPage, number: string, until: RegExp, name: string): Promise<Phase> {
  const payButton = m.page.getByRole("button", { name: /^Pay/ })
  await fillCard(ctx, m.page, ".pgs-card iframe", number)
  const start = await press(m, payButton)
  return { name, start, end: await m.next("loaded", start, until) }
}

const orderIdOf = (page: Page) => ORDER_PAGE.exec(page.url()) && page.url().split("/order/")[1]!.split(/[?#]/)[0]!

export const JOURNEYS: Journey[] = [
  {
    name: "floor",
    floor: true,
    // The least any integration can do: one store call that creates the session, then the gateway's script and frames;
    // after Pay, the gateway's payment, one store call (two where the store cannot complete with the transaction).
    async run(ctx, m) {
      const { cartId, collectionId } = await ctx.api.cart({ address: true, collection: true })
      await m.page.goto(`${ctx.stack.pagesUrl}/floor?cart=${cartId}&collection=${collectionId}`)
      const step = await paymentStep(m)
      await fillCard(ctx, m.page, "#card iframe", FRICTIONLESS)
      const start = await press(m, m.page.getByRole("button", { name: "Pay", exact: true }))
      return [step, { name: "pay → order page", start, end: await m.next("loaded", start, ORDER_PAGE) }]
    },
  },
  {
    name: "floor at load",
    floor: true,
    // The same, started by the page's own load: the baseline of a page that shows the payment step as it opens.
    async run({ stack, api }, m) {
      const { collectionId } = await api.cart({ address: true, collection: true })
      await m.emulate()
      await m.page.goto(`${stack.pagesUrl}/floor?collection=${collectionId}&auto=1`) // no cart: its Pay is not measured
      const start = await m.page.evaluate(() => performance.timeOrigin)
      return [{ name: "payment step", start, end: await m.next("card-ready", start) }]
    },
  },
  {
    name: "card",
    async run(ctx, m) {
      await toDemoCheckout(m, ctx.stack)
      const phases = [await paymentStep(m), await pay(ctx, m, FRICTIONLESS, ORDER_PAGE, "pay → order page")]
      ctx.orders.push(orderIdOf(m.page)!)
      return phases
    },
  },
  {
    name: "card, 3-D Secure challenge",
    async run(ctx, m) {
      await toDemoCheckout(m, ctx.stack)
      const step = await paymentStep(m)
      const toChallenge = await pay(ctx, m, CHALLENGE, /\/three-ds\/|\/acs\/challenge/, "pay → bank's challenge")
      const approve = m.page.frameLocator(".pgs-card iframe").frameLocator('iframe[name="pgs-redirect"]').getByRole("button", { name: /Approve/ })
      const start = await press(m, approve)
      const toOrder = { name: "approve → order page", start, end: await m.next("loaded", start, ORDER_PAGE) }
      ctx.orders.push(orderIdOf(m.page)!)
      return [step, toChallenge, toOrder]
    },
  },
  {
    name: "redirect method",
    async run({ stack }, m) {
      await toDemoCheckout(m, stack)
      const step = await paymentStep(m)
      await m.page.locator('input[value="pp_pgs-open-banking_pgs"]').check()
      const start = await press(m, m.page.getByRole("button", { name: /^Pay/ }))
      return [step, { name: "pay → bank's page", start, end: await m.next("loaded", start, /\/provider\//) }]
    },
  },
  {
    name: "payment-collection page",
    // Money after checkout: an order edited to owe more, paid on the page behind the dashboard's "Copy payment link".
    async run(ctx, m) {
      const { stack, api, orders } = ctx
      const orderId = orders.shift()
      if (!orderId) throw new Error("no order left to edit: the card journeys run first")
      const collectionId = await api.owingMore(orderId)
      await m.emulate()
      await m.page.goto(`${stack.storefrontUrl}/payment-collection/${collectionId}?order_id=${orderId}`)
      const start = await m.page.evaluate(() => performance.timeOrigin)
      const step = { name: "payment step", start, end: await m.next("card-ready", start) }
      // Source text, not a function: see INSTRUMENT_FRAME in browser.ts.
      await m.page.evaluate(`new MutationObserver(() => document.getElementById("payment").dataset.pgsState === "done" &&
        window.__benchMark("shown", "paid", performance.timeOrigin + performance.now())).observe(document.getElementById("payment"), { attributes: true })`)
      await fillCard(ctx, m.page, ".pgs-card iframe", FRICTIONLESS)
      const payStart = await press(m, m.page.getByRole("button", { name: /^Pay/ }))
      return [step, { name: "pay → paid", start: payStart, end: await m.next("shown", payStart, /^paid$/) }]
    },
  },
  {
    name: "React binding",
    async run(ctx, m) {
      const { cartId } = await ctx.api.cart()
      await m.page.goto(`${ctx.stack.pagesUrl}/react-checkout?cart=${cartId}`)
      const phases = [await paymentStep(m), await pay(ctx, m, FRICTIONLESS, ORDER_PAGE, "pay → order page")]
      ctx.orders.push(orderIdOf(m.page)!)
      return phases
    },
  },
]

export async function runJourney(journey: Journey, ctx: JourneyContext): Promise<{ phases: Phase[]; m: MeasuredPage }> {
  const m = await measuredPage(ctx.browser, new URL(ctx.stack.gatewayUrl).origin)
  try {
    return { phases: await journey.run(ctx, m), m }
  } catch (error) {
    // What the shopper saw and what the store or gateway refused, to tell a slow page from a broken one.
    const said = await m.page.locator(".pgs-error, .pgs-status, [role=alert]").allTextContents().catch(() => [])
    const refused = m.network.requests.filter((r) => r.failed || (r.status ?? 0) >= 400).map((r) => `${r.method} ${r.url} → ${r.status ?? "failed"}`)
    await m.close()
    throw new Error(`${journey.name}: ${(error as Error).message}\n  page says: ${JSON.stringify(said)}\n  refused: ${JSON.stringify(refused.slice(-10))}`)
  }
}
