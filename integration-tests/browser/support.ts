/**
 * Browser test support: the sandbox in-process, a merchant "shop" page on another origin that loads
 * {sandbox}/embedded-fields.js, and Debian's Chromium driven by playwright-core. Suites skip when Chromium is absent.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import http from "node:http"
import type { AddressInfo } from "node:net"
import path from "node:path"
import { chromium, type Browser, type FrameLocator, type Page } from "playwright-core"
import type { SandboxOptions } from "../../sandbox"
import { startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"

export const CHROMIUM = "/usr/bin/chromium"
export const hasChromium = existsSync(CHROMIUM)

/** `describe` when Chromium is installed, otherwise a skipped suite whose name says why. */
export const describeBrowser = (name: string, fn: () => void) =>
  hasChromium ? describe(name, fn) : describe.skip(`${name} — skipped: ${CHROMIUM} not found (apt-get install chromium)`, fn)

const SCREENSHOTS = path.resolve(__dirname, "../../artifacts/screenshots")

/**
 * The whole page as the shopper sees it. A page taller than the viewport is captured in a viewport grown to its height
 * (then given back): Chromium's capture beyond the viewport briefly lays cross-origin frames out at another width
 * (60 px), so a frame sized to its content (the gateway's card fields) asked for 60-130 px more, was given them
 * while the picture was taken, and showed an empty band under its fields that no shopper sees. Growing only the
 * height moves no frame (headless Chromium shows no scrollbar, so the width stays).
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  const viewport = page.viewportSize()
  const height = await page.evaluate(() => Math.ceil(document.documentElement.scrollHeight))
  const grow = viewport && height > viewport.height
  if (grow) await page.setViewportSize({ width: viewport.width, height })
  try {
    await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true })
  } finally {
    // Given back even if the capture failed; a page closed meanwhile must not hide the capture's own error.
    if (grow) await page.setViewportSize(viewport).catch(() => undefined)
  }
}

const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8")

/**
 * axe-core in the page (no network): no serious or critical violation, in the whole page or only in `include` (CSS
 * selectors: our part of a page made by someone else) less `exclude` (someone else's inside ours), with `skip`
 * naming rules left out and why.
 */
export async function expectAccessible(page: Page, what: string, options: { include?: string[]; exclude?: string[]; skip?: Record<string, string> } = {}) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ content: AXE })
  const rules = Object.fromEntries(Object.keys(options.skip ?? {}).map((id) => [id, { enabled: false }]))
  const violations = await page.evaluate(async ({ include, exclude, rules }) => {
    type Result = { violations: { id: string; impact: string; nodes: { target: unknown }[] }[] }
    const axe = (window as unknown as { axe: { run(ctx: unknown, o: object): Promise<Result> } }).axe
    const context = include ? { include: include.map((selector) => [selector]), exclude: exclude.map((selector) => [selector]) } : document
    const r = await axe.run(context, { iframes: false, resultTypes: ["violations"], rules })
    return r.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => n.target))}`)
  }, { include: options.include ?? null, exclude: options.exclude ?? [], rules })
  expect({ what, violations }).toEqual({ what, violations: [] })
}

/** The shop: one checkout page, served from another origin than the sandbox (localhost vs 127.0.0.1, own port). */
async function startShop(sandboxUrl: string) {
  const server = http.createServer((req, res) => {
    if (req.url?.startsWith("/favicon")) return res.writeHead(404).end()
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop checkout</title>
<style>
  body { font-family: system-ui, sans-serif; margin: 24px; max-width: 460px; color: #222 }
  #card { padding: 12px; border: 1px solid #eee; border-radius: 8px }
</style><style id="shop-vars"></style></head>
<body><h1>Checkout</h1><div id="card"></div><pre id="out"></pre>
<script src="${sandboxUrl}/embedded-fields.js"></script></body></html>`)
  })
  await new Promise<void>((r) => server.listen(0, () => r()))
  const { port } = server.address() as AddressInfo
  return { url: `http://localhost:${port}/`, close: () => new Promise<void>((r) => server.close(() => r())) }
}

export type BrowserEnv = {
  h: SandboxHarness
  browser: Browser
  shopUrl: string
  close(): Promise<void>
}

export async function startBrowserEnv(options: SandboxOptions = {}): Promise<BrowserEnv> {
  // Chromium starts while the sandbox and the shop do: neither needs the other.
  const launched = chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  })
  launched.catch(() => undefined) // awaited below; until then a failure must not count as unhandled
  let h: SandboxHarness
  let shop: Awaited<ReturnType<typeof startShop>>
  try {
    h = await startHarness({ fingerprintWaitMs: 50, ...options })
    shop = await startShop(h.url)
  } catch (error) {
    await (await launched.catch(() => undefined))?.close()
    throw error
  }
  const browser = await launched
  return {
    h,
    browser,
    shopUrl: shop.url,
    close: async () => {
      await browser.close()
      await shop.close()
      await h.close()
    },
  }
}

export async function createSession(h: SandboxHarness, body: Record<string, unknown> = {}) {
  const res = await h.api("POST", "/api/sessions", {
    terminal_id: h.terminalId,
    reference: uniqueReference("emb"),
    description: "Embedded fields test order",
    currency: "EUR",
    amount: 2599,
    transaction_type: "PURCHASE",
    return_url: "https://shop.example/return",
    ...body,
  })
  if (res.status !== 200) throw new Error(`session: ${res.status} ${res.text}`)
  return res.body as { id: string; terminal_id: string; reference: string }
}

/**
 * Open the shop and mount a component. Results land on window.__pgs (core, component, changes, errors, result)
 * so tests read them with waitForFunction instead of sleeping.
 */
export async function openCheckout(
  env: BrowserEnv,
  opts: { sessionId: string; type?: "card" | "saved-card"; locale?: string; componentConfig?: unknown; shopCss?: string; browserLocale?: string },
): Promise<{ page: Page; frame: FrameLocator }> {
  const context = await env.browser.newContext({ locale: opts.browserLocale ?? "en-US", viewport: { width: 560, height: 820 } })
  const page = await context.newPage()
  await page.goto(env.shopUrl)
  if (opts.shopCss) await page.locator("#shop-vars").evaluate((el, css) => (el.textContent = css), opts.shopCss)
  await page.evaluate(
    async ({ sessionId, clientKey, type, locale, componentConfig }) => {
      const w = window as any
      const state: any = (w.__pgs = { changes: [], errors: [], result: null })
      state.core = await w.PaymentComponent({ clientKey, sessionId, environment: "test", ...(locale ? { locale } : {}) })
      state.component = state.core.create(type, {
        componentConfig,
        componentListeners: { onChange: (s: unknown) => state.changes.push(s), onError: (e: unknown) => state.errors.push(e) },
      })
      await state.component.mount("#card")
    },
    { sessionId: opts.sessionId, clientKey: env.h.config.client_key, type: opts.type ?? "card", locale: opts.locale, componentConfig: opts.componentConfig ?? {} },
  )
  return { page, frame: page.frameLocator("#card iframe") }
}

export async function fillCard(frame: FrameLocator, card: { number: string; expiry?: string; cvv?: string }) {
  await frame.locator("#in-cardNumber").fill(card.number)
  await frame.locator("#in-expirationDate").fill(card.expiry ?? `12/${String(new Date().getFullYear() + 2).slice(2)}`)
  await frame.locator("#in-cvv").fill(card.cvv ?? "123")
}

/** Start submitPayment without waiting; the callback's arguments end up in window.__pgs.result. */
export async function startSubmit(page: Page, customer: Record<string, string> = {}) {
  await page.evaluate((c) => {
    const state = (window as any).__pgs
    state.result = null
    state.component.submitPayment({ customer: c, callback: (response: unknown, error: unknown) => (state.result = { response, error }) })
  }, customer)
}

export async function submitResult(page: Page, timeout = 20_000): Promise<{ response: any; error: any }> {
  await page.waitForFunction(() => (window as any).__pgs.result !== null, undefined, { timeout })
  return page.evaluate(() => (window as any).__pgs.result)
}

/** The demo storefront (scripts/demo/storefront.ts): home → region → Buy → checkout address → the widget's payment step. */
export async function demoStorefrontToPayment(page: Page, storefrontUrl: string, region: string): Promise<void> {
  await page.goto(storefrontUrl)
  await page.getByLabel("Region").selectOption({ label: region })
  await page.getByRole("button", { name: "Buy" }).first().click()
  await page.waitForURL(/\/checkout$/)
  await page.getByRole("button", { name: "Continue to payment" }).click()
  await page.getByRole("radio", { name: "Card", exact: true }).waitFor({ timeout: 30_000 })
}

/** Pays in the widget's embedded card fields with `number` and waits for the demo storefront's order page. */
export async function demoStorefrontPayByCard(page: Page, number: string): Promise<void> {
  const frame = page.frameLocator(".pgs-card iframe")
  await frame.locator("#in-holderName").fill("Ada Lovelace")
  await frame.locator("#in-cardNumber").fill(number)
  await frame.locator("#in-expirationDate").fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`)
  await frame.locator("#in-cvv").fill("123")
  await page.getByRole("button", { name: "Pay" }).press("Enter")
  await page.waitForURL(/\/order\/order_/, { timeout: 60_000 })
  await page.locator("[data-payment-status]").waitFor()
}
