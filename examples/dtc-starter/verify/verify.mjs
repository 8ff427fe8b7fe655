// Manual verification of the dtc-starter recipe (examples/dtc-starter/README.md): drives a RUNNING starter
// (storefront on :8000, backend on :9000, PGS sandbox) as a shopper in headless Chromium and takes screenshots.
// Not part of `npm test`.
//
//   node examples/dtc-starter/verify/verify.mjs [a b c d e f g]        # from this repository, after `npm install`
//
// Scenarios: a frictionless card → order; b 3-D Secure challenge card → Approve → order; c declined card → message,
// cart still payable; d open banking → sandbox page → Approve → return page → order; e register, pay with the
// (sandbox) wallet and "Save this card", then pay again with the saved card (e under `pnpm dev`: in production the
// starter sets its auth cookie Secure, which plain http://localhost does not keep).
// f money after checkout: an order placed by card is edited as a shop admin through Medusa's admin API (an item
// added, confirmed) so it owes more; the payer opens the dashboard's "Copy payment link" address
// ({storefrontUrl}/payment-collection/{id}?order_id=…, no country code) and pays it by card, then after a second
// edit with the 3-D Secure challenge card, then after a third by online banking (sandbox bank page → return page →
// back to the payment-collection page); after each, the admin captures what is authorized and the order owes 0.
// g the customer who owns the order, logged in: after an edit, their saved card is offered on the payment-collection
// page and pays it; "See your order" opens the order in their account (as e: sandbox wallet variable, `pnpm dev`).
// Env: STOREFRONT_URL (http://localhost:8000), COUNTRY (dk), CHROMIUM (/usr/bin/chromium),
//      OUT (artifacts/dtc-starter), PRODUCT (t-shirt: a handle of the starter's seed),
//      MEDUSA_URL (http://localhost:9000), ADMIN_EMAIL / ADMIN_PASSWORD (admin@test.com / supersecret: README, step 7).
import { chromium } from "playwright-core"
import { mkdirSync } from "node:fs"
import path from "node:path"

const STORE = process.env.STOREFRONT_URL ?? "http://localhost:8000"
const MEDUSA = process.env.MEDUSA_URL ?? "http://localhost:9000"
const ADMIN = { email: process.env.ADMIN_EMAIL ?? "admin@test.com", password: process.env.ADMIN_PASSWORD ?? "supersecret" }
const CC = process.env.COUNTRY ?? "dk"
const OUT = path.resolve(process.env.OUT ?? "artifacts/dtc-starter")
const PRODUCT = process.env.PRODUCT ?? "t-shirt"
const CARDS = { frictionless: "4000000000001000", challenge: "4000000000002008", declined: "4000000000005001" }
mkdirSync(OUT, { recursive: true })

const shots = []
async function shot(page, name) {
  const file = path.join(OUT, `${name}.png`)
  // The whole page, but not with fullPage: that resizes the page for the capture, and the gateway's card frame (a
  // cross-origin frame) is captured before it repaints, squeezed to a sliver. Grow the viewport, let it repaint.
  const viewport = page.viewportSize()
  const height = await page.evaluate(() => document.documentElement.scrollHeight).catch(() => viewport.height)
  if (height > viewport.height) {
    await page.setViewportSize({ width: viewport.width, height })
    await page.waitForTimeout(1500)
  }
  await page.screenshot({ path: file })
  if (height > viewport.height) await page.setViewportSize(viewport)
  shots.push(file)
  console.log(`    screenshot ${path.relative(process.cwd(), file)}`)
}

const step = (text) => console.log(`  - ${text}`)

/** Product page → pick the first value of every option → Add to cart. */
async function addToCart(page) {
  await page.goto(`${STORE}/${CC}/products/${PRODUCT}`)
  const groups = page.locator('[data-testid="product-options"]')
  await groups.first().waitFor()
  for (let i = 0; i < (await groups.count()); i++) await groups.nth(i).locator('[data-testid="option-button"]').first().click()
  const add = page.getByTestId("add-product-button")
  await add.click()
  await page.getByTestId("nav-cart-link").filter({ hasText: "(1)" }).waitFor({ timeout: 30_000 }).catch(() => {})
  step("added to cart")
}

/** Checkout: address (unless the form is already filled), delivery, then the payment step with the widget. */
async function toPayment(page, { email = `shopper+${Date.now()}@example.com` } = {}) {
  await page.goto(`${STORE}/${CC}/checkout?step=address`)
  const first = page.getByTestId("shipping-first-name-input")
  await first.waitFor()
  await first.fill("Ada")
  await page.getByTestId("shipping-last-name-input").fill("Lovelace")
  await page.getByTestId("shipping-address-input").fill("Vesterbrogade 1")
  await page.getByTestId("shipping-postal-code-input").fill("1620")
  await page.getByTestId("shipping-city-input").fill("København")
  await page.getByTestId("shipping-country-select").selectOption(CC)
  const mail = page.getByTestId("shipping-email-input")
  if (!(await mail.inputValue())) await mail.fill(email)
  await page.getByTestId("submit-address-button").click()
  await page.waitForURL(/step=delivery/, { timeout: 60_000 })
  await page.getByTestId("delivery-option-radio").first().click()
  await page.getByTestId("submit-delivery-option-button").and(page.locator(":enabled")).click()
  await page.waitForURL(/step=payment/, { timeout: 60_000 })
  await page.locator('#pgs-payment[data-pgs-state="idle"]').waitFor({ timeout: 60_000 })
  step("payment step: the widget is ready")
}

/** Account → register → (the starter sets no cookie on sign-up at 9233262) sign in; answers the email. */
async function registerAndSignIn(page, context) {
  const email = `saver+${Date.now()}@example.com`
  await page.goto(`${STORE}/${CC}/account`)
  await page.getByTestId("register-button").click()
  await page.getByTestId("first-name-input").fill("Grace")
  await page.getByTestId("last-name-input").fill("Hopper")
  await page.getByTestId("email-input").fill(email)
  await page.getByTestId("password-input").fill("supersecret-123")
  await page.getByTestId("register-page").getByTestId("register-button").click()
  await page.getByTestId("account-page").or(page.getByTestId("overview-page-container")).first().waitFor({ timeout: 60_000 })
  // The starter's sign-up action (at 9233262) shows the account but sets no _medusa_jwt cookie: sign in as well.
  await page.goto(`${STORE}/${CC}/account`)
  const login = page.getByTestId("login-page")
  if (await login.isVisible()) {
    await login.locator('input[name="email"]').fill(email)
    await login.locator('input[name="password"]').fill("supersecret-123")
    await page.getByTestId("sign-in-button").click()
  }
  for (let i = 0; !(await context.cookies()).some((c) => c.name === "_medusa_jwt"); i++) {
    if (i === 60) throw new Error("not logged in: no _medusa_jwt cookie")
    await page.waitForTimeout(1000)
  }
  step(`registered and logged in as ${email}`)
  return email
}

const cardFrame = (page) => page.frameLocator(".pgs-card iframe")

async function fillCard(page, number) {
  const f = cardFrame(page)
  await f.locator("#in-holderName").fill("Ada Lovelace")
  await f.locator("#in-cardNumber").fill(number)
  await f.locator("#in-expirationDate").fill(`12/${String(new Date().getFullYear() + 2).slice(2)}`)
  await f.locator("#in-cvv").fill("123")
}

// Buttons are pressed with the keyboard: after typing in the gateway's cross-origin card frame, headless Chromium
// routes the next mouse click into that frame instead of the page (the repository's widget tests do the same).
const press = (locator) => locator.press("Enter")
const pay = (page) => press(page.locator("#pgs-payment").getByRole("button", { name: "Pay" }))

async function confirmed(page, name) {
  await page.waitForURL(/\/order\/order_[^/]+\/confirmed/, { timeout: 90_000 })
  await page.getByText("Thank you!").first().waitFor({ timeout: 30_000 }).catch(() => {})
  await page.getByTestId("payment-method").waitFor({ timeout: 30_000 }).catch(() => {})
  const method = await page.getByTestId("payment-method").textContent().catch(() => null)
  step(`order confirmation ${page.url().replace(STORE, "")} (payment method shown: ${method ?? "none yet"})`)
  await shot(page, name)
  return page.url()
}


// ---- The shop admin, through Medusa's admin API (what the dashboard calls) ----
let adminToken
async function admin(method, route, body) {
  if (!adminToken) {
    const res = await fetch(`${MEDUSA}/auth/user/emailpass`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })
    if (!res.ok) throw new Error(`admin login: ${res.status} ${await res.text()}`)
    adminToken = (await res.json()).token
  }
  const res = await fetch(`${MEDUSA}${route}`, {
    method,
    headers: { authorization: `Bearer ${adminToken}`, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  const text = await res.text()
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${text.slice(0, 400)}`)
  return JSON.parse(text)
}

/** The order as the dashboard reads it: totals, summary (pending_difference is "Outstanding amount"), collections. */
const adminOrder = async (id) =>
  (await admin("GET", `/admin/orders/${id}?fields=id,display_id,total,summary,payment_status,*items,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures`)).order

/** Dashboard: order → Edit → add one more of the order's first item → Request → Confirm. The order then owes more. */
async function editAddingItem(orderId) {
  const order = await adminOrder(orderId)
  await admin("POST", "/admin/order-edits", { order_id: orderId, description: "verify.mjs: one more item" })
  await admin("POST", `/admin/order-edits/${orderId}/items`, { items: [{ variant_id: order.items[0].variant_id, quantity: 1 }] })
  await admin("POST", `/admin/order-edits/${orderId}/request`, {})
  await admin("POST", `/admin/order-edits/${orderId}/confirm`, {})
  const edited = await adminOrder(orderId)
  const open = edited.payment_collections.filter((c) => c.status === "not_paid")
  if (open.length !== 1) throw new Error(`expected one not_paid collection, got ${JSON.stringify(edited.payment_collections.map((c) => [c.id, c.status]))}`)
  step(`order #${edited.display_id} edited: total ${edited.total}, outstanding ${edited.summary.pending_difference}, collection ${open[0].id} (${open[0].amount})`)
  if (!(edited.summary.pending_difference > 0)) throw new Error("the edit left nothing outstanding")
  return { collection: open[0], owed: edited.summary.pending_difference, displayId: edited.display_id, total: edited.total }
}

/** Dashboard: capture what the collection's payment authorized (a method that took the money at once needs none). */
async function captureAndExpectNothingOwed(orderId, collectionId) {
  const order = await adminOrder(orderId)
  const paid = order.payment_collections.find((c) => c.id === collectionId)
  if (!["authorized", "completed"].includes(paid.status) || paid.payments.length !== 1) {
    throw new Error(`collection ${collectionId}: ${paid.status}, ${paid.payments.length} payments`)
  }
  const payment = paid.payments[0]
  step(`collection ${paid.status}: payment ${payment.id} via ${payment.provider_id}, ${payment.amount}, captures ${payment.captures?.length ?? 0}`)
  if (!payment.captures?.length) {
    await admin("POST", `/admin/payments/${payment.id}/capture`, {})
    step("captured as the shop admin")
  }
  // The capture's order transaction moves Medusa's outstanding amount.
  let after
  for (let i = 0; i < 30; i++) {
    after = await adminOrder(orderId)
    if (after.summary.pending_difference === 0) break
    await new Promise((r) => setTimeout(r, 1000))
  }
  step(`admin API: order payment_status ${after.payment_status}, outstanding ${after.summary.pending_difference}`)
  if (after.summary.pending_difference !== 0) throw new Error(`still outstanding: ${after.summary.pending_difference}`)
}

/** The dashboard's "Copy payment link": `${storefrontUrl}/payment-collection/${id}?order_id=${order}` (no country). */
const paymentLink = (collectionId, orderId) => `${STORE}/payment-collection/${collectionId}?order_id=${orderId}`
const collectionWidget = (page) => page.locator("#pgs-collection")
const collectionState = (page, state, timeout = 90_000) => page.locator(`#pgs-collection[data-pgs-state="${state}"]`).waitFor({ timeout })

/** Opens the copied link; the starter's middleware must add the country code and keep the query. */
async function openPaymentLink(page, collectionId, orderId, displayId, owed, link = paymentLink(collectionId, orderId)) {
  await page.goto(link)
  const url = new URL(page.url())
  if (url.pathname !== `/${CC}/payment-collection/${collectionId}` || url.searchParams.get("order_id") !== orderId) throw new Error(`link landed on ${page.url()}`)
  await collectionState(page, "idle")
  const heading = await collectionWidget(page).locator(".pgs-order").textContent()
  const due = await collectionWidget(page).locator(".pgs-owed").textContent()
  step(`payment link → ${page.url().replace(STORE, "")}: "${heading}", "${due}"`)
  if (heading !== `Order #${displayId}`) throw new Error(`heading "${heading}"`)
  if (!due.includes(owed.toFixed(2))) throw new Error(`amount due "${due}", the admin says ${owed}`)
}

/**
 * The shop admin in Medusa's dashboard: sign in, open the order, press "Copy payment link" and read what it copied
 * (the dashboard copies with copy-to-clipboard's execCommand("copy"): caught from the copy event's selection).
 */
async function copyPaymentLinkInDashboard(browser, orderId) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" })
  context.setDefaultNavigationTimeout(180_000) // `medusa develop` serves the dashboard through Vite: slow first load
  await context.addInitScript(() => {
    window.addEventListener("copy", () => (window.__copied = String(document.getSelection())), true)
  })
  const page = await context.newPage()
  try {
    await page.goto(`${MEDUSA}/app/login`)
    await page.locator('input[name="email"]').fill(ADMIN.email, { timeout: 180_000 })
    await page.locator('input[name="password"]').fill(ADMIN.password)
    await page.locator('button[type="submit"]').click()
    await page.waitForURL((u) => !u.pathname.endsWith("/login"), { timeout: 120_000 })
    await page.goto(`${MEDUSA}/app/orders/${orderId}`)
    const button = page.getByRole("button", { name: "CopyPaymentLink code snippet" })
    await button.waitFor({ timeout: 120_000 })
    step(`dashboard: order shows "${(await button.textContent()).trim()}"`)
    await shot(page, "f-dashboard-copy-payment-link")
    await button.click()
    for (let i = 0; !(await page.evaluate(() => window.__copied)); i++) {
      if (i === 20) throw new Error("the dashboard copied nothing")
      await page.waitForTimeout(250)
    }
    const copied = await page.evaluate(() => window.__copied)
    step(`dashboard copied ${copied}`)
    return copied
  } finally {
    await context.close()
  }
}

async function collectionCardReady(page) {
  const input = cardFrame(page).locator("#in-cardNumber")
  await input.waitFor({ timeout: 60_000 })
  // Wait until the frame has laid its fields out (a screenshot right after mounting catches it mid-resize).
  for (let i = 0; (await input.evaluate((el) => el.getBoundingClientRect().width)) < 150; i++) {
    if (i === 60) throw new Error("the card fields never laid out (card number narrower than 150 px)")
    await page.waitForTimeout(500)
  }
}

async function collectionPaid(page, name) {
  await collectionState(page, "done")
  const said = await collectionWidget(page).locator(".pgs-status").textContent()
  step(`payment-collection page says "${said}"`)
  await shot(page, name)
}

const scenarios = {
  async a(context) {
    const page = await context.newPage()
    await addToCart(page)
    await toPayment(page)
    await cardFrame(page).locator("#in-cardNumber").waitFor()
    await fillCard(page, CARDS.frictionless)
    await shot(page, "a-card-filled")
    await pay(page)
    await confirmed(page, "a-order-confirmed")
  },

  async b(context) {
    const page = await context.newPage()
    await addToCart(page)
    await toPayment(page)
    await cardFrame(page).locator("#in-cardNumber").waitFor()
    await fillCard(page, CARDS.challenge)
    await pay(page)
    // The challenge runs inside the gateway's card frame (Embedded Fields): the sandbox's ACS page.
    const approve = cardFrame(page).frameLocator('iframe[name="pgs-redirect"]').getByRole("button", { name: /Approve/ })
    await approve.waitFor({ timeout: 60_000 })
    await shot(page, "b-3ds-challenge")
    await press(approve)
    step("challenge approved")
    await confirmed(page, "b-order-confirmed")
  },

  async c(context) {
    const page = await context.newPage()
    await addToCart(page)
    await toPayment(page)
    await cardFrame(page).locator("#in-cardNumber").waitFor()
    await fillCard(page, CARDS.declined)
    await pay(page)
    const alert = page.locator("#pgs-payment").getByRole("alert").filter({ hasText: /declined/ })
    await alert.waitFor({ timeout: 60_000 })
    step(`decline shown: "${await alert.textContent()}"`)
    await shot(page, "c-declined")
    // Still payable: the widget is idle again, and a good card in the same checkout places the order.
    await page.locator('#pgs-payment[data-pgs-state="idle"]').waitFor()
    await fillCard(page, CARDS.frictionless)
    await pay(page)
    await confirmed(page, "c-retry-order-confirmed")
  },

  async d(context) {
    const page = await context.newPage()
    await addToCart(page)
    await toPayment(page)
    await page.locator("#pgs-payment").getByLabel("Online banking", { exact: true }).check()
    await shot(page, "d-open-banking-chosen")
    await pay(page)
    // The sandbox's provider page (the bank), then back to {PGS_STORE_URL}/checkout/return?pgs_session=…
    const approve = page.getByRole("button", { name: /Approve/ })
    await approve.waitFor({ timeout: 60_000 })
    step(`provider page ${page.url()}`)
    await shot(page, "d-provider-page")
    await approve.click()
    await page.waitForURL(/\/checkout\/return\?/, { timeout: 60_000 })
    step(`return page ${page.url().replace(STORE, "")}`)
    await page.locator("#pgs-return .pgs-status").waitFor()
    await shot(page, "d-return-page")
    await confirmed(page, "d-order-confirmed")
  },

  async e(context) {
    const page = await context.newPage()
    const email = await registerAndSignIn(page, context)

    await addToCart(page)
    await toPayment(page, { email })
    const widget = page.locator("#pgs-payment")
    const wallet = widget.getByLabel("Wallet on this device")
    await wallet.waitFor({ timeout: 15_000 }).catch(() => {
      throw new Error('no "Wallet on this device": set NEXT_PUBLIC_PGS_SANDBOX_WALLET_CARD=4000000000001000 in .env.local (storefront step 2) and restart the storefront')
    })
    await wallet.check()
    await widget.getByLabel("Save this card for next time").check()
    await shot(page, "e-wallet-save-card")
    await pay(page)
    await confirmed(page, "e-first-order-confirmed")

    // The card is saved when the gateway's tokenization webhook reaches the store: give it a moment.
    await page.waitForTimeout(3000)
    await addToCart(page)
    await toPayment(page, { email })
    const saved = widget.getByRole("radio", { name: /ending in 1000/ })
    await saved.waitFor({ timeout: 30_000 })
    step(`saved card offered: "${await widget.locator('label:has(input[value^="saved:"])').first().textContent()}"`)
    if (!(await saved.isChecked())) await saved.check()
    await shot(page, "e-saved-card-offered")
    await pay(page)
    await confirmed(page, "e-saved-card-order-confirmed")
  },

  async f(context, browser) {
    const page = await context.newPage()
    await addToCart(page)
    await toPayment(page)
    await cardFrame(page).locator("#in-cardNumber").waitFor()
    await fillCard(page, CARDS.frictionless)
    await pay(page)
    const orderId = (await confirmed(page, "f-order-confirmed")).match(/order\/(order_[^/]+)\//)[1]

    // 1. Edit → card. The first payment was only authorized: Medusa voids it and asks for the new total.
    let { collection, owed, displayId } = await editAddingItem(orderId)
    // What the shop admin sends: the dashboard's "Copy payment link" (needs the admin's storefrontUrl for a host).
    const copied = await copyPaymentLinkInDashboard(browser, orderId)
    if (copied !== paymentLink(collection.id, orderId)) throw new Error(`the dashboard copied ${copied}, expected ${paymentLink(collection.id, orderId)}`)
    for (const [width, height] of [[360, 1100], [1280, 1000]]) {
      const viewer = await browser.newContext({ viewport: { width, height }, locale: "en-US" })
      const p = await viewer.newPage()
      p.on("pageerror", (e) => console.log(`    [page error] ${e.message}`))
      p.setDefaultNavigationTimeout(180_000)
      await openPaymentLink(p, collection.id, orderId, displayId, owed, copied)
      await collectionCardReady(p)
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      step(`${width} px: horizontal overflow ${overflow} px`)
      await shot(p, `f-payment-link-${width}`)
      await viewer.close()
    }
    await openPaymentLink(page, collection.id, orderId, displayId, owed)
    await collectionCardReady(page)
    await fillCard(page, CARDS.frictionless)
    await press(collectionWidget(page).getByRole("button", { name: /^Pay / }))
    await collectionPaid(page, "f-card-paid")
    await captureAndExpectNothingOwed(orderId, collection.id)
    // The same link again: paid, nothing to pay.
    await page.reload()
    await collectionState(page, "closed")
    step(`reopened: "${await collectionWidget(page).locator(".pgs-status").textContent()}"`)
    await shot(page, "f-card-link-reopened")

    // 2. Another edit → the 3-D Secure challenge card (the challenge runs inside the gateway's card frame).
    ;({ collection, owed, displayId } = await editAddingItem(orderId))
    await openPaymentLink(page, collection.id, orderId, displayId, owed)
    await collectionCardReady(page)
    await fillCard(page, CARDS.challenge)
    await press(collectionWidget(page).getByRole("button", { name: /^Pay / }))
    const approve = cardFrame(page).frameLocator('iframe[name="pgs-redirect"]').getByRole("button", { name: /Approve/ })
    await approve.waitFor({ timeout: 60_000 })
    await shot(page, "f-3ds-challenge")
    await press(approve)
    step("challenge approved")
    await collectionPaid(page, "f-3ds-paid")
    await captureAndExpectNothingOwed(orderId, collection.id)

    // 3. Another edit → online banking: the sandbox's bank page, the store's return page, back to this page.
    ;({ collection, owed, displayId } = await editAddingItem(orderId))
    await openPaymentLink(page, collection.id, orderId, displayId, owed)
    await collectionWidget(page).getByLabel("Online banking", { exact: true }).check()
    await shot(page, "f-open-banking-chosen")
    await press(collectionWidget(page).getByRole("button", { name: /^Pay / }))
    const bank = page.getByRole("button", { name: /Approve/ })
    await bank.waitFor({ timeout: 60_000 })
    step(`provider page ${page.url()}`)
    await bank.click()
    await page.waitForURL(new RegExp(`/payment-collection/${collection.id}\\?.*pgs_session=`), { timeout: 90_000 })
    step(`back on ${page.url().replace(STORE, "")}`)
    if (new URL(page.url()).searchParams.get("order_id") !== orderId) throw new Error("came back without order_id")
    await collectionPaid(page, "f-open-banking-paid")
    await captureAndExpectNothingOwed(orderId, collection.id)
  },
  async g(context) {
    // The customer who owns the order, logged in: their saved card on the payment-collection page, then the link
    // to the order in their account. Needs the sandbox wallet (storefront step 2) and `pnpm dev`, as e.
    const page = await context.newPage()
    const email = await registerAndSignIn(page, context)
    await addToCart(page)
    await toPayment(page, { email })
    const widget = page.locator("#pgs-payment")
    await widget.getByLabel("Wallet on this device").check({ timeout: 15_000 })
    await widget.getByLabel("Save this card for next time").check()
    await pay(page)
    const orderId = (await confirmed(page, "g-order-confirmed")).match(/order\/(order_[^/]+)\//)[1]
    await page.waitForTimeout(3000) // the gateway's tokenization webhook saves the card

    const { collection, owed, displayId, total } = await editAddingItem(orderId)
    await openPaymentLink(page, collection.id, orderId, displayId, owed)
    const saved = collectionWidget(page).getByRole("radio", { name: /ending in 1000/ })
    await saved.waitFor({ timeout: 30_000 })
    step(`owner is offered "${await collectionWidget(page).locator('label:has(input[value^="saved:"])').first().textContent()}"`)
    if (!(await saved.isChecked())) await saved.check()
    await shot(page, "g-owner-saved-card")
    await press(collectionWidget(page).getByRole("button", { name: /^Pay / }))
    await collectionState(page, "done")
    // The link shows once the page has refreshed the browser's cached orders (pgsCollectionPaid).
    const link = page.getByRole("link", { name: "See your order" })
    await link.waitFor({ timeout: 30_000 })
    step(`payment-collection page says "${await collectionWidget(page).locator(".pgs-status").textContent()}", with "See your order"`)
    await shot(page, "g-owner-paid")
    await link.click()
    await page.waitForURL(new RegExp(`/account/orders/details/${orderId}`), { timeout: 120_000 })
    const details = page.getByTestId("order-details-container")
    await details.waitFor({ timeout: 60_000 })
    step(`"See your order" → ${page.url().replace(STORE, "")}`)
    // The order as edited, not as this browser cached it at checkout (the starter reads orders with force-cache).
    if (!(await details.textContent()).includes(`€${total.toFixed(2)}`)) throw new Error(`the order page does not show the edited total €${total.toFixed(2)}`)
    step(`order page shows the edited total €${total.toFixed(2)}`)
    await shot(page, "g-owner-order-page")
    await captureAndExpectNothingOwed(orderId, collection.id)
  },
}

const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(scenarios)
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", headless: true })
const results = []
for (const name of wanted) {
  console.log(`scenario ${name}`)
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: "en-US" })
  context.setDefaultNavigationTimeout(180_000) // `next dev` compiles each page on its first visit
  context.on("page", (p) => {
    p.on("pageerror", (e) => console.log(`    [page error] ${e.message}`))
    if (process.env.DEBUG) p.on("console", (m) => console.log(`    [console.${m.type()}] ${m.text()}`))
  })
  try {
    await scenarios[name](context, browser)
    results.push([name, "ok"])
  } catch (e) {
    console.log(`    FAILED: ${e.message.split("\n")[0]}`)
    for (const p of context.pages()) {
      const w = p.locator("#pgs-payment, #pgs-return, #pgs-collection").first()
      if (await w.count()) console.log(`    widget: state ${await w.getAttribute("data-pgs-state")}, says "${(await w.locator(".pgs-error, .pgs-status").allTextContents()).join(" ")}"`)
    }
    for (const p of context.pages()) await shot(p, `${name}-failure-${context.pages().indexOf(p)}`).catch(() => {})
    results.push([name, "FAILED"])
  }
  await context.close()
}
await browser.close()
console.log(results.map(([n, r]) => `${n}: ${r}`).join("\n"))
process.exit(results.some(([, r]) => r !== "ok") ? 1 : 0)
