/**
 * The admin extension in the real dashboard (built with Medusa's bundler, served next to the store), in Chromium:
 * an admin signs in, changes a terminal setting (and sees a field error first), follows an order paid through the
 * sandbox with its webhook timeline and syncs it, creates a payout, and deletes a customer's saved card.
 * Screenshots land in artifacts/screenshots/admin-*.png.
 */
import type { Browser, Page } from "playwright-core"
import { admin, customerWithSavedCard, paidOrder } from "../http/support/admin-pgs"
import { PGS_PROVIDER_ID, pgsStoreSuite } from "../http/support/store"
import { buildAdmin, createAdminUser, launchChromium, serveAdmin, signIn } from "./admin-support"
import { describeBrowser, screenshot } from "./support"

jest.setTimeout(240_000)

describeBrowser("admin extension in the dashboard", () => {
  pgsStoreSuite("admin extension in the dashboard", (s) => {
    let browser: Browser
    let adminServer: Awaited<ReturnType<typeof serveAdmin>>
    let page: Page

    beforeAll(async () => {
      const outDir = buildAdmin()
      adminServer = await serveAdmin(outDir, s.medusaUrl)
      browser = await launchChromium()
    }, 300_000)
    afterAll(async () => {
      await browser?.close()
      await adminServer?.close()
    })
    // The runner restores the database before each test: a new admin and a new browser context each time.
    beforeEach(async () => {
      page = await signIn(browser, adminServer.url, await createAdminUser(s.container()))
    })
    afterEach(async () => {
      await page?.context().close()
    })

    it("changes a terminal setting in Settings → Payment Gateway, and the next payment session uses it", async () => {
      await page.goto(`${adminServer.url}/app/settings/pgs`)
      await page.getByRole("button", { name: "Test connection" }).click()
      await page.getByTestId("pgs-connection-result").getByText(/Connected to realm uat in \d+ ms/).waitFor()
      // The secret shows masked only.
      await page.getByText(`••••••${s.sandbox.config.client_secret.slice(-4)}`).waitFor()
      expect(await page.content()).not.toContain(s.sandbox.config.client_secret)

      await page.getByRole("button", { name: "Add terminal" }).click()
      await page.getByLabel("Terminal id").fill("SBX-CARDS-01")
      await page.getByLabel("Currencies").fill("EUR")
      await page.getByRole("combobox", { name: "Default transaction type" }).click()
      await page.getByRole("option", { name: "PURCHASE" }).click()
      await page.getByRole("combobox", { name: "Default locale" }).click()
      await page.getByRole("option", { name: "sv-SE" }).click()
      await page.getByLabel("--lib-accent-background-color").fill("#0a7d32")
      // An override with Embedded Fields: the server's error appears under the field.
      await page.getByLabel("3-D Secure notification URL override").fill("https://shop.example/3ds")
      await page.getByRole("button", { name: "Save terminal" }).click()
      await page.locator("#pgs-terminal-notification-url-error").getByText(/only for the Direct API/).waitFor()
      await page.locator("#pgs-terminal-notification-url-error").scrollIntoViewIfNeeded()
      await screenshot(page, "admin-settings-field-error")

      await page.getByLabel("3-D Secure notification URL override").fill("")
      await page.getByRole("button", { name: "Save terminal" }).click()
      await page.getByTestId("pgs-terminal-SBX-CARDS-01").waitFor()
      await page.getByTestId("pgs-terminal-SBX-CARDS-01").scrollIntoViewIfNeeded()
      await screenshot(page, "admin-settings-terminal-saved")

      const session = await s.initiatePaymentSession((await s.createCart()).id, PGS_PROVIDER_ID)
      expect(session.data).toMatchObject({ terminal_id: "SBX-CARDS-01", transaction_type: "PURCHASE", locale: "sv-SE", css_variables: { "--lib-accent-background-color": "#0a7d32" } })
    })

    it("shows the webhook timeline of an order paid through the sandbox, and syncs it from the gateway", async () => {
      const { orderId, transactionId } = await paidOrder(s)
      await page.goto(`${adminServer.url}/app/orders/${orderId}`)
      const widget = page.getByRole("region", { name: "Payment gateway" }).or(page.locator('[aria-label="Payment gateway"]')).first()
      await widget.getByText(transactionId).first().waitFor({ timeout: 30_000 })
      await widget.getByTestId("pgs-timeline-event").first().waitFor()
      expect(await widget.getByText("APPROVED").count()).toBeGreaterThan(0)
      // The dashboard scrolls inside its own container: bring the widget into the picture.
      await widget.getByTestId("pgs-timeline-event").first().scrollIntoViewIfNeeded()
      await screenshot(page, "admin-order-timeline")

      const [synced] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith(`/admin/pgs/orders/${orderId}/sync`) && r.request().method() === "POST"),
        widget.getByRole("button", { name: "Sync from gateway" }).click(),
      ])
      expect(synced.status()).toBe(200)
      await page.getByText("Read from the gateway").waitFor()
      await widget.getByTestId("pgs-timeline-event").first().scrollIntoViewIfNeeded()
      await screenshot(page, "admin-order-synced")
    })

    it("creates a bank-account payout after correcting a field, and shows it in the list and its details (pending: what settles it)", async () => {
      await page.goto(`${adminServer.url}/app/pgs-payouts`)
      await page.getByRole("button", { name: "Create payout" }).click()
      const reference = `po-browser-${Date.now().toString(36)}`
      await page.getByLabel("Reference").first().fill(reference)
      await page.getByLabel("Amount").fill("12.50")
      await page.getByLabel("Description").fill("Supplier refund")
      await page.getByLabel("Account number").fill("12 34")
      await page.getByLabel("Account holder name").fill("Grace Hopper")
      await page.getByRole("button", { name: "Send payout" }).click()
      await page.locator("#pgs-payout-account_number-error").getByText(/letters or digits/).waitFor()
      await page.locator("#pgs-payout-account_number-error").scrollIntoViewIfNeeded()
      await screenshot(page, "admin-payout-field-error")

      await page.getByLabel("Account number").fill("DE89370400440532013000")
      await page.getByRole("button", { name: "Send payout" }).click()
      const row = page.getByTestId("pgs-payout-row").filter({ hasText: reference })
      await row.waitFor()
      await screenshot(page, "admin-payouts-list")
      await row.getByRole("link", { name: reference }).click()
      await page.getByRole("heading", { name: `Payout ${reference}` }).waitFor()
      await page.getByText("****3000").waitFor()
      // Still pending at the gateway: the page says, in plain words, what settles it.
      await page.getByTestId("pgs-payout-pending").getByText(/settles it by itself and sends a webhook, which updates the\s+status here/).waitFor()
      await screenshot(page, "admin-payout-details")
      const listed = await admin(s, "get", `/admin/pgs/payouts?reference=${reference}`)
      expect(listed.data.payouts).toHaveLength(1)
    })

    it("deletes a customer's saved card from the customer page", async () => {
      const { customerId, card } = await customerWithSavedCard(s)
      await page.goto(`${adminServer.url}/app/customers/${customerId}`)
      const cardRow = page.getByTestId("pgs-saved-card")
      await cardRow.getByText(card.masked).waitFor({ timeout: 30_000 })
      await cardRow.getByText("07/2031").waitFor()
      await cardRow.scrollIntoViewIfNeeded()
      await screenshot(page, "admin-customer-saved-cards")
      await cardRow.getByRole("button", { name: `Delete card ${card.masked}` }).click()
      await page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click()
      await page.getByText("No saved cards.").waitFor()
      await page.getByText("No saved cards.").scrollIntoViewIfNeeded()
      await screenshot(page, "admin-customer-card-deleted")
      expect((await admin(s, "get", `/admin/pgs/customers/${customerId}/saved-cards`)).data.saved_cards).toEqual([])
    })
  })
})
