/**
 * The demo's storefront: a few plain pages that use the store API and the widget exactly as a storefront would —
 * products, cart, checkout (email and billing address, then the widget's payment step), the return page the
 * gateway sends shoppers back to, the order confirmation, and the payment page behind the dashboard's "Copy payment
 * link" (/payment-collection/{id}?order_id=…, money after checkout). Served from its own origin (STORE_CORS allows it).
 */
import fs from "node:fs"
import http from "node:http"
import os from "node:os"
import path from "node:path"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildWidget } = require("../../storefront-widget/build.cjs") as { buildWidget(outdir: string): Promise<{ core: string }> }

export type RunningStorefront = { url: string; close(): Promise<void> }

/** `widgetDir`: serve an installed widget's `dist` (the packed package, in the newcomer suite) instead of building one. */
export async function startStorefront(o: { port: number; medusaUrl: string; publishableKey: string; widgetDir?: string }): Promise<RunningStorefront> {
  const dist = o.widgetDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pgs-demo-widget-"))
  if (!o.widgetDir) await buildWidget(dist)
  const connection = { baseUrl: o.medusaUrl, publishableKey: o.publishableKey }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost")
    const file = /^\/widget\/([\w-]+\.js)$/.exec(url.pathname)?.[1]
    if (file && fs.existsSync(path.join(dist, file))) {
      res.writeHead(200, { "content-type": "text/javascript" }).end(fs.readFileSync(path.join(dist, file)))
      return
    }
    const page =
      PAGES[url.pathname] ??
      (url.pathname.startsWith("/order/") ? PAGES["/order"] : /^\/payment-collection\/[^/]+$/.test(url.pathname) ? PAGES["/payment-collection"] : undefined)
    if (!page) {
      res.writeHead(404, { "content-type": "text/plain" }).end("Not found")
      return
    }
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(layout(page.title, page.body(connection)))
  })
  await new Promise<void>((resolve) => server.listen(o.port, "127.0.0.1", resolve))
  return {
    url: `http://localhost:${o.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
        if (!o.widgetDir) fs.rmSync(dist, { recursive: true, force: true })
      }),
  }
}

type Connection = { baseUrl: string; publishableKey: string }
type Page = { title: string; body(c: Connection): string }

const json = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c")

/** Shared by every page: the store API with the publishable key, the cart and region kept in localStorage. */
const SHOP_JS = (c: Connection) => `
const shop = {
  c: ${json(c)},
  async api(path, init = {}) {
    const res = await fetch(shop.c.baseUrl + path, { ...init, headers: { "content-type": "application/json", "x-publishable-api-key": shop.c.publishableKey, ...(init.headers || {}) } })
    const body = await res.json().catch(() => ({}))
    if (!res.ok) throw new Error(body.message || res.statusText)
    return body
  },
  get cartId() { return localStorage.getItem("demo:cart") },
  set cartId(id) { id ? localStorage.setItem("demo:cart", id) : localStorage.removeItem("demo:cart") },
  money(amount, currency) { return new Intl.NumberFormat("en", { style: "currency", currency }).format(amount) },
  appearance: { theme: matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light" },
}
`

const layout = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · PGS demo shop</title>
<style>
  body{font-family:system-ui,sans-serif;margin:0 auto;padding:16px;max-width:640px;color:#1d1d1f}
  header{display:flex;justify-content:space-between;align-items:center;border-bottom:1px solid #eee;margin-bottom:16px}
  .product{display:flex;justify-content:space-between;align-items:center;padding:12px 0;border-bottom:1px solid #f2f2f2}
  button{font:inherit;padding:8px 14px;border-radius:8px;border:1px solid #333;background:#333;color:#fff;cursor:pointer}
  label{display:block;margin:8px 0 4px}
  input,select{font:inherit;padding:6px 8px;width:100%;box-sizing:border-box}
  .row{display:grid;grid-template-columns:1fr 1fr;gap:8px}
  [role=alert]{color:#b00020}
  @media (prefers-color-scheme: dark){body{background:#121316;color:#eee}header{border-color:#333}.product{border-color:#222}}
</style></head>
<body><header><a href="/"><strong>PGS demo shop</strong></a><a href="/checkout">Checkout</a></header><main>${body}</main></body></html>`

const PAGES: Record<string, Page> = {
  "/": {
    title: "Products",
    body: (c) => `<h1>Products</h1>
<label for="region">Region</label><select id="region"></select>
<div id="products" aria-live="polite">Loading…</div>
<script type="module">
${SHOP_JS(c)}
const regions = (await shop.api("/store/regions")).regions
const select = document.getElementById("region")
select.innerHTML = regions.map((r) => '<option value="' + r.id + '">' + r.name + " (" + r.currency_code.toUpperCase() + ")</option>").join("")
select.value = localStorage.getItem("demo:region") || regions[0].id
async function render() {
  localStorage.setItem("demo:region", select.value)
  const region = regions.find((r) => r.id === select.value)
  const { products } = await shop.api("/store/products?region_id=" + region.id + "&fields=*variants.calculated_price")
  document.getElementById("products").innerHTML = products.map((p) => {
    const v = p.variants[0]
    return '<div class="product"><span>' + p.title + " — " + shop.money(v.calculated_price.calculated_amount, region.currency_code) +
      '</span><button data-variant="' + v.id + '">Buy</button></div>'
  }).join("")
}
select.addEventListener("change", () => { shop.cartId = null; render() })
document.getElementById("products").addEventListener("click", async (e) => {
  const variant = e.target.dataset && e.target.dataset.variant
  if (!variant) return
  let cartId = shop.cartId
  if (!cartId) cartId = shop.cartId = (await shop.api("/store/carts", { method: "POST", body: JSON.stringify({ region_id: select.value }) })).cart.id
  await shop.api("/store/carts/" + cartId + "/line-items", { method: "POST", body: JSON.stringify({ variant_id: variant, quantity: 1 }) })
  location.href = "/checkout"
})
await render()
</script>`,
  },
  "/checkout": {
    title: "Checkout",
    body: (c) => `<h1>Checkout</h1>
<div id="summary"></div>
<form id="address" novalidate>
  <label for="email">Email</label><input id="email" type="email" autocomplete="email" required value="shopper@example.com">
  <div class="row"><div><label for="first_name">First name</label><input id="first_name" required value="Ada"></div>
  <div><label for="last_name">Last name</label><input id="last_name" required value="Lovelace"></div></div>
  <label for="address_1">Address</label><input id="address_1" required value="1 Analytical Street">
  <div class="row"><div><label for="city">City</label><input id="city" required value="London"></div>
  <div><label for="postal_code">Postal code</label><input id="postal_code" required value="10115"></div></div>
  <label for="country_code">Country</label><select id="country_code"></select>
  <p><button type="submit" disabled>Continue to payment</button></p>
</form>
<div id="payment"></div>
<script type="module">
${SHOP_JS(c)}
import { mountCheckout } from "/widget/index.js"
if (!shop.cartId) { document.querySelector("main").innerHTML = '<p>Your cart is empty. <a href="/">Shop</a></p>'; throw new Error("no cart") }
const { cart } = await shop.api("/store/carts/" + shop.cartId + "?fields=*items,*region.countries")
document.getElementById("summary").textContent = cart.items.length + " item(s), total " + shop.money(cart.total, cart.currency_code)
document.getElementById("country_code").innerHTML = cart.region.countries.map((k) => '<option value="' + k.iso_2 + '">' + k.display_name + "</option>").join("")
document.getElementById("address").addEventListener("submit", async (e) => {
  e.preventDefault()
  const v = (id) => document.getElementById(id).value
  const address = { first_name: v("first_name"), last_name: v("last_name"), address_1: v("address_1"), city: v("city"), postal_code: v("postal_code"), country_code: v("country_code") }
  await shop.api("/store/carts/" + shop.cartId, { method: "POST", body: JSON.stringify({ email: v("email"), billing_address: address, shipping_address: address }) })
  document.getElementById("address").hidden = true
  // The widget renders in its own shadow root: this page's input{width:100%} cannot reach it. It lists what can
  // serve this cart (the server decides), the voucher with its picker, and follows the shopper's light or dark mode.
  mountCheckout("#payment", { ...shop.c, cartId: shop.cartId, appearance: shop.appearance,
    onOrder: (order) => { shop.cartId = null; location.href = "/order/" + order.id } })
})
// Enabled once the cart is loaded and the form is wired (a click before would reload the page).
document.querySelector("#address button").disabled = false
</script>`,
  },
  "/checkout/return": {
    title: "Payment result",
    body: (c) => `<h1>Your payment</h1><div id="result"></div>
<script type="module">
${SHOP_JS(c)}
import { mountReturn } from "/widget/index.js"
import { returnToCollection } from "/widget/collection.js"
// A shopper who left from a payment-collection page goes back there; otherwise this is a cart's return.
if (!returnToCollection()) mountReturn("#result", { ...shop.c, cartId: shop.cartId || undefined, appearance: shop.appearance, checkoutUrl: "/checkout", pollMs: 1000,
  onResult: (r) => { if (r.order) { shop.cartId = null; setTimeout(() => (location.href = "/order/" + r.order.id), 1500) } } })
</script>`,
  },
  "/payment-collection": {
    title: "Pay for your order",
    body: (c) => `<h1>Pay for your order</h1><div id="payment"></div><p id="after" hidden><a href="#">See your order</a></p>
<script type="module">
${SHOP_JS(c)}
import { mountCollectionPayment } from "/widget/collection.js"
// The link Medusa's dashboard copies: /payment-collection/{collection id}?order_id={order id}. The widget shows
// what is owed and for which order, offers what can serve it, and records the payment (no cart to complete).
const collectionId = decodeURIComponent(location.pathname.split("/").pop())
const orderId = new URLSearchParams(location.search).get("order_id") || undefined
mountCollectionPayment("#payment", { ...shop.c, collectionId, orderId, appearance: shop.appearance,
  // The widget never tells the order's id (it opens the order's details); the link names it when it came with one.
  onPaid: () => { if (!orderId) return; const a = document.querySelector("#after a"); a.href = "/order/" + orderId; a.parentElement.hidden = false } })
</script>`,
  },
  "/order": {
    title: "Thank you",
    body: (c) => `<h1>Thank you!</h1><div id="order" role="status">Loading your order…</div>
<script type="module">
${SHOP_JS(c)}
const id = location.pathname.split("/").pop()
const { order } = await shop.api("/store/orders/" + id + "?fields=id,display_id,total,currency_code,payment_status,email")
document.getElementById("order").innerHTML = "<p>Order <strong>#" + order.display_id + "</strong> for " + shop.money(order.total, order.currency_code) +
  ' is placed.</p><p>Payment status: <strong data-payment-status>' + order.payment_status + "</strong></p>"
</script>`,
  },
}
