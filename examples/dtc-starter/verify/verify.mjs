// Manual verification of the dtc-starter recipe (examples/dtc-starter/README.md): drives a RUNNING starter
// (storefront on :8000, backend on :9000, PGS sandbox) as a shopper in headless Chromium and takes screenshots.
// Not part of `npm test`.
//
//   node examples/dtc-starter/verify/verify.mjs [a b c d e]        # from this repository, after `npm install`
//
// Scenarios: a frictionless card → order; b 3-D Secure challenge card → Approve → order; c declined card → message,
// cart still payable; d open banking → sandbox page → Approve → return page → order; e register, pay with the
// (sandbox) wallet and "Save this card", then pay again with the saved card (e under `pnpm dev`: in production the
// starter sets its auth cookie Secure, which plain http://localhost does not keep).
// Env: STOREFRONT_URL (http://localhost:8000), COUNTRY (dk), CHROMIUM (/usr/bin/chromium),
//      OUT (artifacts/dtc-starter), PRODUCT (t-shirt: a handle of the starter's seed).
import { chromium } from "playwright-core"
import { mkdirSync } from "node:fs"
import path from "node:path"

const STORE = process.env.STOREFRONT_URL ?? "http://localhost:8000"
const CC = process.env.COUNTRY ?? "dk"
const OUT = path.resolve(process.env.OUT ?? "artifacts/dtc-starter")
const PRODUCT = process.env.PRODUCT ?? "t-shirt"
const CARDS = { frictionless: "4000000000001000", challenge: "4000000000002008", declined: "4000000000005001" }
mkdirSync(OUT, { recursive: true })

const shots = []
async function shot(page, name) {
  const file = path.join(OUT, `${name}.png`)
  await page.screenshot({ path: file, fullPage: true })
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

    await addToCart(page)
    await toPayment(page, { email })
    const widget = page.locator("#pgs-payment")
    await widget.getByLabel("Wallet on this device").check()
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
    step(`saved card offered: "${await widget.locator('label[for^="pgs-m-saved"]').first().textContent()}"`)
    if (!(await saved.isChecked())) await saved.check()
    await shot(page, "e-saved-card-offered")
    await pay(page)
    await confirmed(page, "e-saved-card-order-confirmed")
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
    await scenarios[name](context)
    results.push([name, "ok"])
  } catch (e) {
    console.log(`    FAILED: ${e.message.split("\n")[0]}`)
    for (const p of context.pages()) {
      const w = p.locator("#pgs-payment, #pgs-return").first()
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
