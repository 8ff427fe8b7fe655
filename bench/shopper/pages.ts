/**
 * The bench's own pages, on an origin of their own (STORE_CORS allows it):
 *   /floor?cart=ID&collection=ID  the least any integration can do: one store call that creates the payment
 *                         session, then the gateway's script and its card frames. Starts on "Continue to payment",
 *                         or at load with &auto=1 (the baseline of a page that shows the payment step as it opens).
 *                         Its Pay: the gateway's payment, then one store call completing the cart with the
 *                         transaction (or, where the store cannot take both in one call, attaching it first), then
 *                         the order page.
 *   /react-checkout?cart=ID  a React storefront's payment step: "Continue to payment" saves the address (as the
 *                         demo storefront does), then renders the package's <PgsCheckout>.
 */
import fs from "node:fs"
import http from "node:http"
import os from "node:os"
import path from "node:path"
import { build } from "esbuild"

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { buildWidget } = require("../../storefront-widget/build.cjs") as { buildWidget(outdir: string): Promise<{ react: string }> }

const ROOT = path.resolve(__dirname, "../..")
export const ADDRESS = { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical Street", city: "Berlin", postal_code: "10115", country_code: "de" }

/** `orderUrl`: where the React page sends the shopper after the order, followed by the order's id. */
export async function startBenchPages(o: { port: number; storeUrl: string; publishableKey: string; orderUrl: string }): Promise<{ close(): Promise<void> }> {
  const connection = { baseUrl: o.storeUrl, publishableKey: o.publishableKey }
  const reactBundle = await bundleReactCheckout()
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost")
    if (url.pathname === "/react-checkout.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(reactBundle)
    const body = url.pathname === "/floor" ? floorPage(connection, o.orderUrl) : url.pathname === "/react-checkout" ? reactPage(connection, o.orderUrl) : null
    if (!body) return void res.writeHead(404, { "content-type": "text/plain" }).end("Not found")
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(o.port, "127.0.0.1", resolve))
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

const json = (v: unknown) => JSON.stringify(v).replace(/</g, "\\u003c")
const layout = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;padding:16px;max-width:560px}</style></head><body>${body}</body></html>`

/** Card fields configured as the widget configures them (holder name shown and required), so the frames match. */
function floorPage(c: { baseUrl: string; publishableKey: string }, orderUrl: string): string {
  return layout(
    "Floor",
    `<h1>Payment</h1><button id="go">Continue to payment</button><div id="card"></div><button id="pay" hidden>Pay</button>
<script type="module">
const c = ${json(c)}
const q = new URLSearchParams(location.search)
const api = (path, body) => fetch(c.baseUrl + path, { method: "POST", headers: { "content-type": "application/json", "x-publishable-api-key": c.publishableKey }, body: JSON.stringify(body) }).then((r) => r.json())
async function show() {
  const body = await api("/store/payment-collections/" + q.get("collection") + "/payment-sessions", { provider_id: "pp_pgs_pgs" })
  const session = (body.payment_collection?.payment_sessions || []).find((s) => s.provider_id === "pp_pgs_pgs")
  const d = session?.data
  if (!d?.script_url || !d.client_key || !d.gateway_session_id) throw new Error("no card session in " + JSON.stringify(body).slice(0, 300))
  await new Promise((resolve, reject) => { const s = document.createElement("script"); s.src = d.script_url; s.onload = resolve; s.onerror = reject; document.head.appendChild(s) })
  const core = await window.PaymentComponent({ clientKey: d.client_key, sessionId: d.gateway_session_id, environment: d.environment })
  const card = core.create("card", { componentConfig: { customerConfig: { hasHolderName: true, holderNameRequired: true } } })
  await card.mount("#card")
  const pay = document.getElementById("pay")
  pay.hidden = false
  pay.addEventListener("click", () => card.submitPayment({ customer: {}, callback: async (r) => {
    const cart = "/store/carts/" + q.get("cart") + "/complete"
    let done = await api(cart, { pgs_transaction: { payment_session_id: session.id, transaction_id: r.transaction_id } })
    if (done.type !== "order") {
      await api("/store/pgs/payment-sessions/" + session.id + "/transaction", { transaction_id: r.transaction_id })
      done = await api(cart, {})
    }
    if (done.type !== "order") throw new Error("no order: " + JSON.stringify(done).slice(0, 300))
    location.href = ${json(orderUrl)} + done.order.id
  } }))
}
if (q.get("auto")) show()
else document.getElementById("go").addEventListener("click", show)
</script>`,
  )
}

function reactPage(c: { baseUrl: string; publishableKey: string }, orderUrl: string): string {
  return layout(
    "Checkout (React)",
    `<h1>Checkout</h1><div id="app"></div>
<script>window.shop = ${json({ connection: c, address: ADDRESS, orderUrl })}</script>
<script type="module" src="/react-checkout.js"></script>`,
  )
}

/** The React page's script, bundled as a storefront would: react and react-dom, and the package's "./react" export built. */
async function bundleReactCheckout(): Promise<string> {
  const dist = fs.mkdtempSync(path.join(os.tmpdir(), "pgs-bench-react-"))
  try {
    const built = await buildWidget(dist)
    const entry = `
      import { createElement as h, useState } from "react"
      import { createRoot } from "react-dom/client"
      import { PgsCheckout } from "medusa-payment-pgs-storefront/react"
      const { connection, address } = window.shop
      const cartId = new URLSearchParams(location.search).get("cart")
      function Checkout() {
        const [step, setStep] = useState("address")
        const next = async () => {
          await fetch(connection.baseUrl + "/store/carts/" + cartId, { method: "POST", headers: { "content-type": "application/json", "x-publishable-api-key": connection.publishableKey },
            body: JSON.stringify({ email: "shopper@example.com", billing_address: address, shipping_address: address }) })
          setStep("payment")
        }
        return step === "address" ? h("button", { onClick: next }, "Continue to payment")
          : h(PgsCheckout, { ...connection, id: "payment", cartId, onOrder: (o) => { location.href = window.shop.orderUrl + o.id } })
      }
      createRoot(document.getElementById("app")).render(h(Checkout))`
    const out = await build({
      stdin: { contents: entry, resolveDir: ROOT, loader: "js" },
      bundle: true,
      format: "esm",
      minify: true,
      write: false,
      alias: { "medusa-payment-pgs-storefront/react": built.react },
      nodePaths: [path.join(ROOT, "node_modules")],
      define: { "process.env.NODE_ENV": '"production"' },
      logLevel: "silent",
    })
    return out.outputFiles[0]!.text
  } finally {
    fs.rmSync(dist, { recursive: true, force: true })
  }
}
