/**
 * The storefront widget in a real browser against a real store: Medusa with the plugin and the sandbox
 * (pgsStoreSuite), the widget built with its own build script, and a small shop served at the store URL the
 * plugin sends shoppers back to (PGS_STORE_URL), so returns from the gateway land on our page. The shop uses the
 * widget exactly as a storefront would: a checkout page calling mountCheckout, a return page calling mountReturn.
 */
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { build } from "esbuild"
import { chromium, type Browser, type BrowserContext, type FrameLocator, type Page } from "playwright-core"
import { pgsStoreSuite, type StoreSuite } from "../http/support/store"
import { CHROMIUM, describeBrowser } from "./support"

const ROOT = path.join(__dirname, "../..")
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildWidget } = require("../../storefront-widget/build.cjs") as { buildWidget(outdir: string): Promise<unknown> }

/**
 * One store (Medusa + plugin + sandbox), one Chromium and the shop for a file of widget tests; skipped where
 * Chromium is missing. `shop()` is ready once the suite's beforeAll ran. `env`: options of this suite's store.
 */
export function widgetSuite(name: string, body: (s: StoreSuite, shop: () => WidgetShop) => void, options: { env?: Record<string, string> } = {}) {
  // Medusa 2.21 reads STORE_CORS "*" as a literal origin (parseCorsOrigins), so no page on another origin could
  // call the store API. Set here, while the test file loads, before the store boots: the shop's localhost origin.
  process.env.STORE_CORS = "/^http:\\/\\/localhost(:\\d+)?$/"
  describeBrowser(name, () => {
    // The widget's build and Chromium need no store: started before it boots (the first beforeAll), used once it is up.
    let prepared: Promise<PreparedShop>
    beforeAll(() => {
      prepared = prepareWidgetShop()
      prepared.catch(() => undefined) // awaited below; a failure is reported there
    })
    afterAll(async () => {
      await (await prepared?.catch(() => undefined))?.browser.close()
    })
    pgsStoreSuite(name, (s) => {
      let shop: WidgetShop
      beforeAll(async () => {
        shop = await startWidgetShop(s, await prepared)
      })
      body(s, () => shop)
    }, options)
  })
}

export type ShopConfig = {
  cartId: string
  locale?: string
  /** A logged-in customer's bearer token. */
  token?: string
  /** The React storefront page (PgsCheckout) instead of the plain one (mountCheckout). */
  react?: boolean
  /** A wallet token the page's wallet button hands the widget. */
  walletToken?: string
  sessionData?: Record<string, unknown>
  methodData?: Record<string, Record<string, unknown>>
  /** The widget's appearance option (theme and variables); a dark theme gets a dark page. */
  appearance?: { theme?: "light" | "dark"; variables?: Record<string, string> }
  /** A stylesheet of the host page's own, placed before the widget (e.g. a hostile reset). */
  hostCss?: string
  /** The widget's `labels` option: the storefront's own method names. */
  labels?: Record<string, string>
  /**
   * A Content-Security-Policy header on the shop's pages. The shop's own inline script carries the nonce
   * SHOP_NONCE, which the policy must allow ('nonce-…'); the widget's needs are the rest of the policy.
   */
  csp?: string
}

/** The nonce of the shop page's own inline script (a real shop makes one per response). */
export const SHOP_NONCE = "c2hvcC1wYWdl"

type Viewport = { width: number; height: number }
type BeforeLoad = (page: Page) => unknown

export type WidgetShop = {
  browser: Browser
  storeUrl: string
  /** `before`: called (and awaited) with the page before it loads (e.g. to record its requests from the first). */
  open(config: ShopConfig, viewport?: Viewport, before?: BeforeLoad): Promise<{ page: Page; context: BrowserContext }>
  /** A cart of its own, and the shop's checkout page for it. */
  checkout(config?: Omit<ShopConfig, "cartId">, cartInput?: Parameters<StoreSuite["createCart"]>[0], viewport?: Viewport, before?: BeforeLoad): Promise<{ cart: any; page: Page; context: BrowserContext }>
}

type PreparedShop = { dist: string; browser: Browser }

/**
 * The widget built with its own build script's function (the JavaScript only: the shop needs no declaration files)
 * and the React shop page bundled, while Chromium starts.
 */
export async function prepareWidgetShop(): Promise<PreparedShop> {
  const dist = mkdtempSync(path.join(os.tmpdir(), "pgs-widget-"))
  // The same flags as the other browser suites (support.ts's startBrowserEnv launches with its own sandbox), plus:
  // the shop page is served by request interception, which Chromium's Local Network Access counts as a public
  // page, so its calls to the store on loopback would be refused; a real storefront and store share a network.
  const launched = chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
      "--disable-features=LocalNetworkAccessChecks,PrivateNetworkAccessRespectPreflightResults",
    ],
  })
  launched.catch(() => undefined) // awaited below; until then a failure must not count as unhandled
  try {
    await buildWidget(dist)
    await buildReactShop(dist)
  } catch (error) {
    await (await launched.catch(() => undefined))?.close()
    throw error
  }
  return { dist, browser: await launched }
}

/** The shop on a prepared build and browser. Call in beforeAll after the store booted (PGS_STORE_URL is then final). */
export async function startWidgetShop(s: StoreSuite, { dist, browser }: PreparedShop): Promise<WidgetShop> {
  const storeUrl = (process.env.PGS_STORE_URL ?? "http://localhost:8000").replace(/\/$/, "")

  const open: WidgetShop["open"] = async (config, viewport = { width: 520, height: 900 }, before) => {
    const context = await browser.newContext({ locale: "en-US", viewport })
    const connection = { baseUrl: s.medusaUrl, publishableKey: s.seed.publishableKey }
    // The shop lives at the store URL: served here, so no port of this machine is taken.
    await context.route(`${storeUrl}/**`, (route) => {
      const url = new URL(route.request().url())
      const file = /^\/widget\/([\w-]+\.js)$/.exec(url.pathname)?.[1]
      if (file && existsSync(path.join(dist, file))) return route.fulfill({ body: readFileSync(path.join(dist, file)), contentType: "text/javascript" })
      const headers = config.csp ? { "content-security-policy": config.csp } : undefined
      if (url.pathname === "/checkout")
        return route.fulfill({ body: config.react ? reactCheckoutPage(connection, config) : checkoutPage(connection, config), contentType: "text/html", headers })
      if (url.pathname === "/checkout/return") return route.fulfill({ body: returnPage(connection, config), contentType: "text/html" })
      return route.fulfill({ status: 404, body: "not found" })
    })
    const page = await context.newPage()
    page.on("pageerror", (e) => console.error(`[shop page] ${e.message}`))
    page.on("console", (m) => m.type() === "error" && !m.text().includes("401") && console.error(`[shop console] ${m.text()}`))
    await before?.(page)
    await page.goto(`${storeUrl}/checkout`)
    return { page, context }
  }

  const checkout: WidgetShop["checkout"] = async (config = {}, cartInput = {}, viewport, before) => {
    const cart = await s.createCart(cartInput)
    return { cart, ...(await open({ cartId: cart.id, ...config }, viewport, before)) }
  }

  return { browser, storeUrl, open, checkout }
}

const json = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c")

const LAYOUT = (title: string, body: string, c: ShopConfig) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title><style>body{font-family:system-ui,sans-serif;margin:0 auto;padding:16px;max-width:560px;color:#222}
${c.appearance?.theme === "dark" ? "body{background:#121316;color:#eee}" : ""}</style>${c.hostCss ? `<style>${c.hostCss}</style>` : ""}</head>
<body><main>${body}</main></body></html>`

/** The storefront's payment step: a language picker of its own and the widget. */
function checkoutPage(connection: Record<string, string>, c: ShopConfig): string {
  return LAYOUT(
    "Shop — payment",
    `<h1>Payment</h1>
<label>Language <select id="shop-locale">${["en-US", "bs-BA", "ro-RO", "sv-SE"].map((l) => `<option${l === (c.locale ?? "en-US") ? " selected" : ""}>${l}</option>`).join("")}</select></label>
<div id="payment"></div>
<script type="module" nonce="${SHOP_NONCE}">
  import { mountCheckout } from "/widget/index.js"
  const c = ${json(c)}
  const widget = mountCheckout("#payment", {
    ...${json(connection)},
    authToken: () => c.token,
    cartId: c.cartId,
    locale: c.locale,
    sessionData: c.sessionData,
    methodData: c.methodData,
    wallet: c.walletToken ? { getToken: async () => c.walletToken } : undefined,
    appearance: c.appearance,
    labels: c.labels,
    onOrder: (order) => { window.shopOrder = order },
    onError: (e) => console.error("widget error", e && e.status, e && e.message),
  })
  document.getElementById("shop-locale").addEventListener("change", (e) => widget.setLocale(e.target.value))
  window.shopWidget = widget
</script>`,
    c,
  )
}

/**
 * A React storefront's payment step, bundled like a storefront would (react, react-dom and the package's
 * "./react" export from the built dist): a language picker in React state and <PgsCheckout>.
 */
async function buildReactShop(dist: string) {
  const entry = `
    import { createElement as h, useState } from "react"
    import { createRoot } from "react-dom/client"
    import { PgsCheckout } from "medusa-payment-pgs-storefront/react"
    const c = window.shopConfig
    function Payment() {
      const [locale, setLocale] = useState(c.locale || "en-US")
      return h("div", null,
        h("label", null, "Language ", h("select", { id: "shop-locale", value: locale, onChange: (e) => setLocale(e.target.value) },
          ["en-US", "bs-BA", "ro-RO", "sv-SE"].map((l) => h("option", { key: l }, l)))),
        h(PgsCheckout, { ...c.connection, id: "payment", cartId: c.cartId, locale, onOrder: (o) => { window.shopOrder = o } }))
    }
    createRoot(document.getElementById("app")).render(h(Payment))`
  writeFileSync(path.join(dist, "shop-react.js"), await bundleReactPage(entry, { "medusa-payment-pgs-storefront/react": path.join(dist, "react.js") }))
}

/**
 * A React storefront page's script, bundled as a storefront would bundle it: react and react-dom from this
 * checkout, the package's exports (`alias`) from a built dist.
 */
export async function bundleReactPage(entry: string, alias: Record<string, string>): Promise<string> {
  const out = await build({
    stdin: { contents: entry, resolveDir: ROOT, loader: "js" },
    bundle: true,
    format: "esm",
    minify: true,
    write: false,
    alias,
    nodePaths: [path.join(ROOT, "node_modules")], // the built bindings live in a temp folder
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "silent",
  })
  return out.outputFiles[0]!.text
}

function reactCheckoutPage(connection: Record<string, string>, c: ShopConfig): string {
  return LAYOUT(
    "Shop — payment (React)",
    `<h1>Payment</h1><div id="app"></div>
<script>window.shopConfig = ${json({ ...c, connection })}</script>
<script type="module" src="/widget/shop-react.js"></script>`,
    c,
  )
}

/** The storefront's /checkout/return page: the widget's return helper. */
function returnPage(connection: Record<string, string>, c: ShopConfig): string {
  return LAYOUT(
    "Shop — payment result",
    `<h1>Your payment</h1><div id="result"></div>
<script type="module">
  import { mountReturn } from "/widget/index.js"
  const c = ${json(c)}
  mountReturn("#result", { ...${json(connection)}, authToken: () => c.token, locale: c.locale, appearance: c.appearance, checkoutUrl: "/checkout", pollMs: 300,
    onResult: (r) => { window.shopResult = r } })
</script>`,
    c,
  )
}

/** The gateway's card frame inside the widget. */
export const cardFrame = (page: Page): FrameLocator => page.frameLocator(".pgs-card iframe")

export async function fillCardFields(page: Page, number: string, holder = "Ada Lovelace") {
  const frame = cardFrame(page)
  await frame.locator("#in-holderName").fill(holder)
  await frame.locator("#in-cardNumber").fill(number)
  await frame.locator("#in-expirationDate").fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`)
  await frame.locator("#in-cvv").fill("123")
}

/** Fills the card in the gateway's frame and presses the widget's pay button (with the keyboard: see widget-card.spec.ts). */
export async function payByCard(page: Page, number: string, payLabel = "Pay") {
  await fillCardFields(page, number)
  await page.getByRole("button", { name: payLabel }).press("Enter")
}

/**
 * Waits for the widget's state machine to reach `state` (data-pgs-state on the mount point). The deadline is for a
 * full `npm test` on a loaded 2-core machine (CI varies up to 3×): a card paid under the docs' CSP once took over 30 s
 * to reach "done" there, while it takes 7 s alone.
 */
export async function widgetState(page: Page, state: string, timeout = 90_000) {
  await page
    .locator(`#payment[data-pgs-state="${state}"]`)
    .waitFor({ timeout })
    .catch(async (error: Error) => {
      // Say where it stood instead: its state and what it told the shopper.
      const now = await page.locator("#payment").getAttribute("data-pgs-state", { timeout: 1_000 }).catch(() => "unknown")
      const told = await page.locator(".pgs-error").textContent({ timeout: 1_000 }).catch(() => "")
      throw new Error(`The widget did not reach "${state}" in ${timeout / 1000} s: it is "${now}", telling the shopper "${told ?? ""}". ${error.message}`)
    })
}

/**
 * The paid state looks finished: the message alone, no card form left behind (it showed squeezed to a sliver of its
 * width under "Payment approved") and no Pay to press.
 */
export async function expectFinished(page: Page) {
  expect(await page.locator(".pgs-status").isVisible()).toBe(true)
  for (const part of [".pgs-methods", ".pgs-card iframe", ".pgs-pay"]) expect({ part, visible: await page.locator(part).isVisible() }).toEqual({ part, visible: false })
}

/** The cart's order, read through the store API like the storefront's confirmation page would. */
export async function orderOf(page: Page): Promise<{ id: string } | null> {
  return page.evaluate(() => (window as any).shopOrder ?? null)
}

/** The gateway transactions of a cart's PGS payment session (sandbox ledger), to prove one charge. */
export async function chargesFor(s: StoreSuite, reference: string) {
  const entries = (await s.sandbox.control("GET", "/_sandbox/ledger")).body.entries as { reference: string; replay: boolean; status: string | null }[]
  return entries.filter((e) => e.reference === reference && !e.replay)
}
