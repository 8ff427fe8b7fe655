/**
 * The widget as a payment element, seen in Chromium on a hostile host page (a CSS reset like Tailwind's preflight,
 * `input{width:100%}`, tiny fonts): its layout holds at 360, 768 and 1280 px, light and dark, on the payment step,
 * an open 3-D Secure challenge, a decline and the return page (screenshots in artifacts/widget/); axe-core finds
 * nothing serious; a shopper buys with the keyboard alone.
 */
import { mkdirSync } from "node:fs"
import path from "node:path"
import type { Page } from "playwright-core"
import { PLAIN_VISA, walletPayment } from "../http/support/checkout-direct"
import { cardFrame, fillCardFields, orderOf, widgetState, widgetSuite, type ShopConfig } from "./widget-support"
import { expectAccessible } from "./support"

/** What a storefront's global styles may do to everything on the page. */
const HOSTILE = `*,::before,::after{box-sizing:border-box;border:0 solid;margin:0;padding:0}
button,input,select{font:inherit;color:inherit;background:transparent;-webkit-appearance:none;appearance:none}
input{width:100%} label{display:block;font-size:9px;text-align:center} *{font-size:9px!important;line-height:1!important}
div{display:flex;flex-direction:column;align-items:center} fieldset{display:none} iframe{height:10px!important}
button{display:none} p{color:transparent}`

const WIDTHS = [360, 768, 1280]
const THEMES = ["light", "dark"] as const
const SHOTS = path.resolve(__dirname, "../../artifacts/widget")

type Box = { x: number; y: number; width: number; height: number }

/** Where things are, read through the widget's shadow root. */
function geometry(page: Page) {
  return page.evaluate(() => {
    const plain = (r: DOMRect) => ({ x: r.x, y: r.y, width: r.width, height: r.height })
    const host = document.querySelector("[data-pgs-host]")!
    const root = host.shadowRoot!
    const at = (sel: string, within: ParentNode = root) => plain(within.querySelector(sel)!.getBoundingClientRect())
    return {
      mount: plain(host.parentElement!.getBoundingClientRect()),
      host: plain(host.getBoundingClientRect()),
      list: at(".pgs-rows"),
      rows: Array.from(root.querySelectorAll(".pgs-row")).map((r) => ({ row: plain(r.getBoundingClientRect()), radio: at("input[type=radio]", r), name: at(".pgs-name", r) })),
      pay: at(".pgs-pay"),
      // 3-D Secure's dialog comes with its chunk, the first time a payment needs it.
      dialog: root.querySelector(".pgs-3ds") ? at(".pgs-3ds") : null,
      nameFont: getComputedStyle(root.querySelector(".pgs-name")!).fontSize,
      pageWidth: document.documentElement.scrollWidth,
      viewport: innerWidth,
    }
  })
}

/** Layout facts a broken page fails: one line per radio and label, full-width rows, no overlap, Pay in view. */
async function expectSoundLayout(page: Page) {
  const g = await geometry(page)
  const bottom = (b: Box) => b.y + b.height
  const centre = (b: Box) => b.y + b.height / 2
  expect(g.host.width).toBeGreaterThan(g.mount.width - 2) // the widget fills its mount point
  expect(Math.abs(g.list.width - g.host.width)).toBeLessThanOrEqual(1)
  expect(g.rows.length).toBeGreaterThan(0)
  g.rows.forEach((r, i) => {
    expect(Math.abs(centre(r.radio) - centre(r.name))).toBeLessThanOrEqual(4) // radio and label on one line
    expect(r.radio.x + r.radio.width).toBeLessThanOrEqual(r.name.x)
    expect(r.radio.width).toBeLessThan(30) // not stretched by `input{width:100%}`
    expect(g.list.width - r.row.width).toBeLessThanOrEqual(2) // rows the full width (inside the list's border)
    if (i > 0) expect(r.row.y).toBeGreaterThanOrEqual(bottom(g.rows[i - 1].row) - 0.5) // no overlap
  })
  expect(g.nameFont).toBe("16px") // the host's 9px did not reach inside
  expect(g.pay.y).toBeGreaterThanOrEqual(bottom(g.list))
  expect(g.pay.height).toBeGreaterThanOrEqual(44)
  expect(g.pay.x + g.pay.width).toBeLessThanOrEqual(g.viewport) // Pay without scrolling sideways
  expect(g.pageWidth).toBeLessThanOrEqual(g.viewport)
}

/** Until the gateway's card frame (another process) has reflowed to its new width: its inputs span the frame. */
async function cardFrameReflowed(page: Page) {
  if (!(await page.locator(".pgs-card iframe").count())) return
  const deadline = Date.now() + 10_000
  for (;;) {
    const width = (el: Element) => el.getBoundingClientRect().width
    const frame = await page.locator(".pgs-card iframe").evaluate(width)
    const input = await cardFrame(page).locator("#in-cardNumber").evaluate(width)
    if (input > frame * 0.8) return
    if (Date.now() > deadline) throw new Error("the card frame did not reflow to its width")
    await page.waitForTimeout(50) // polling a cross-process frame's layout: no event tells when it is done
  }
}

/** The same view at every width (the page reflows; nothing reloads). */
async function shootWidths(page: Page, name: string, check?: () => Promise<void>) {
  mkdirSync(SHOTS, { recursive: true })
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 })
    await cardFrameReflowed(page)
    await check?.()
    // The whole page in the viewport, not a full-page capture: that relayouts past the viewport, and the gateway's
    // frame (another process) was caught mid-reflow.
    const height = await page.evaluate(() => document.documentElement.scrollHeight)
    await page.setViewportSize({ width, height: Math.max(900, height) })
    await cardFrameReflowed(page)
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`) })
  }
}

widgetSuite("storefront widget: the payment element", (s, shop) => {
  const errorTexts = (page: Page) => page.locator(".pgs-error").allTextContents().then((t) => t.filter(Boolean))

  it.each(THEMES)("keeps its layout on a hostile page and passes axe: the payment step and a decline (%s)", async (theme) => {
    const config: Omit<ShopConfig, "cartId"> = { appearance: { theme }, hostCss: HOSTILE }
    const { page, context } = await shop().checkout(config, { currency_code: "eur" })
    await cardFrame(page).locator("#in-cardNumber").waitFor()
    expect(await page.getByRole("button", { name: "Pay €" }).textContent()).toMatch(/^Pay €\d+\.\d\d$/) // the amount, in the shopper's locale
    await shootWidths(page, `payment-step-${theme}`, () => expectSoundLayout(page))
    await expectAccessible(page, "payment step")

    await fillCardFields(page, s.sandbox.testCard("frictionless_insufficient_funds"))
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await page.getByRole("alert").filter({ hasText: "insufficient funds" }).waitFor({ timeout: 30_000 })
    await widgetState(page, "idle")
    // One message, in the card's own row, once fresh card fields are ready for the next try.
    expect(await errorTexts(page)).toEqual(["Your payment was declined: insufficient funds. Please use another card."])
    expect(await page.locator(".pgs-row.pgs-open .pgs-error").count()).toBe(1)
    await cardFrame(page).locator("#in-cardNumber").waitFor()
    await shootWidths(page, `decline-${theme}`, () => expectSoundLayout(page))
    await expectAccessible(page, "decline")
    await context.close()
  })

  it.each(THEMES)("locks the method list during the 3-D Secure challenge, which the shopper can cancel (%s)", async (theme) => {
    const cart = await s.createCart()
    const { page, context } = await shop().open({
      cartId: cart.id,
      appearance: { theme },
      hostCss: HOSTILE,
      walletToken: walletPayment(PLAIN_VISA, "PAN_ONLY").token,
      sessionData: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" },
    })
    await page.getByRole("radio", { name: "Wallet on this device" }).check()
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    const dialog = page.getByRole("dialog", { name: "Confirm the payment with your bank" })
    await page.frameLocator("iframe.pgs-acs").getByRole("button", { name: /Approve/ }).waitFor({ timeout: 30_000 })
    expect(await dialog.isVisible()).toBe(true)
    // The challenge is the only thing to act on: every method and Pay are disabled.
    for (const radio of await page.getByRole("radio").all()) expect(await radio.isDisabled()).toBe(true)
    expect(await page.locator(".pgs-pay").isDisabled()).toBe(true)
    await shootWidths(page, `challenge-${theme}`, async () => {
      const g = await geometry(page)
      const dialog = g.dialog!
      expect(Math.abs(dialog.width - g.host.width)).toBeLessThanOrEqual(1) // the challenge spans the widget
      expect(dialog.y + dialog.height).toBeLessThanOrEqual(g.list.y) // above the locked list, not over it
      expect(dialog.height).toBeGreaterThan(300) // room for the bank's page
      expect(g.pageWidth).toBeLessThanOrEqual(g.viewport)
    })
    await expectAccessible(page, "challenge")

    await dialog.getByRole("button", { name: "Cancel" }).press("Enter")
    await page.getByRole("alert").filter({ hasText: "The payment was canceled." }).waitFor({ timeout: 30_000 })
    await widgetState(page, "idle")
    expect(await dialog.isVisible()).toBe(false)
    expect(await page.getByRole("radio", { name: "Card", exact: true }).isDisabled()).toBe(false)
    expect(await orderOf(page)).toBeNull()
    await context.close()
  })

  it.each(THEMES)("shows the return page after a declined redirect payment, on a hostile page (%s)", async (theme) => {
    const { page, context } = await shop().checkout({ appearance: { theme }, hostCss: HOSTILE })
    await page.getByRole("radio", { name: "Online banking", exact: true }).check()
    await page.getByRole("button", { name: "Pay" }).press("Enter")
    await page.waitForURL(/\/provider\//)
    await page.getByRole("button", { name: "Decline" }).click()
    await page.locator('#result[data-pgs-result="declined"]').waitFor({ timeout: 60_000 })
    const link = page.getByRole("link", { name: "Back to checkout" })
    await shootWidths(page, `return-${theme}`, async () => {
      expect(await link.isVisible()).toBe(true)
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true)
    })
    await expectAccessible(page, "return page")
    await context.close()
  })

  it("lists only the methods that can serve a EUR cart, each with its icon, and names them in the shopper's language", async () => {
    const { page, context } = await shop().checkout({ locale: "sv-SE" }, { currency_code: "eur" })
    await page.getByRole("radio", { name: "Kort", exact: true }).waitFor()
    const values = await page.locator('input[name="pgs-method"]').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value))
    expect(values[0]).toBe("card")
    expect(values).not.toContain("pp_pgs-upi_pgs")
    expect(values).not.toContain("pp_pgs-provider-instant_pgs")
    expect(await page.locator(".pgs-row svg").count()).toBe(values.length)
    expect(await page.getByRole("radio", { name: "Internetbank", exact: true }).count()).toBe(1)
    expect(await page.getByRole("button", { name: /^Betala \d+,\d\d\s€$/ }).count()).toBe(1)
    // Only the open row shows its content: the voucher picker appears once its row is chosen.
    expect(await page.getByLabel("Välj värdebevis").count()).toBe(0)
    await page.getByRole("radio", { name: "Värdebevis" }).check()
    await page.getByLabel("Välj värdebevis").waitFor()
    expect(await page.locator(".pgs-card").count()).toBe(0)
    await context.close()
  })

  it("lets a shopper buy with the keyboard alone", async () => {
    const { page, context } = await shop().checkout()
    const frame = cardFrame(page)
    await frame.locator("#in-cardNumber").waitFor()
    const focused = (sel: string) => frame.locator(sel).evaluate((el) => el === el.ownerDocument.activeElement && el.ownerDocument.hasFocus())
    const payFocused = () => page.evaluate(() => document.querySelector("[data-pgs-host]")?.shadowRoot?.activeElement?.classList.contains("pgs-pay") ?? false)
    /** Tab until `ready` says so (a page's tab order is short: a deadline in presses, not time). */
    async function tabTo(ready: () => Promise<boolean>, what: string) {
      for (let i = 0; i < 20; i++) {
        if (await ready()) return
        await page.keyboard.press("Tab")
      }
      throw new Error(`Tab never reached ${what}`)
    }
    await tabTo(() => page.evaluate(() => (document.querySelector("[data-pgs-host]")?.shadowRoot?.activeElement as HTMLInputElement | null)?.value === "card"), "the Card radio")
    await tabTo(() => focused("#in-holderName"), "the holder name")
    await page.keyboard.type("Ada Lovelace")
    await tabTo(() => focused("#in-cardNumber"), "the card number")
    await page.keyboard.type(s.sandbox.testCard("frictionless_approved"))
    await tabTo(() => focused("#in-expirationDate"), "the expiry")
    await page.keyboard.type(`12${String(new Date().getFullYear() + 2).slice(2)}`)
    await tabTo(() => focused("#in-cvv"), "the CVV")
    await page.keyboard.type("123")
    await tabTo(payFocused, "Pay")
    await page.keyboard.press("Enter")
    await widgetState(page, "done")
    expect((await orderOf(page))?.id).toMatch(/^order_/)
    await context.close()
  })
})
