/**
 * The admin extension in the real dashboard (built with Medusa's bundler, served next to the store), in Chromium:
 * an admin signs in, changes a terminal setting (field errors first: "At most 100 characters", a rule's own message),
 * follows an order paid through the sandbox with its webhook timeline and syncs it, creates a payout ("Required"
 * first), and deletes a customer's saved card.
 * Screenshots land in artifacts/screenshots/admin-*.png.
 */
import { admin, customerWithSavedCard, paidOrder } from "../../http/support/admin-pgs"
import { PGS_PROVIDER_ID } from "../../http/support/store"
import { MEDUSA_SEARCH_ICON, MEDUSA_TOKENS } from "../admin-support"
import { expectAccessible, screenshot } from "../support"
import { sessionFields } from "../../support/session-fields"
import { browserBody } from "../browser-store"

export default browserBody("admin extension in the dashboard", (s, d) => {
  it("changes a terminal setting in Settings → Payment Gateway, and the next payment session uses it", async () => {
    await d.page.goto(`${d.url}/app/settings/pgs`)
    await d.page.getByRole("button", { name: "Test connection" }).click()
    await d.page.getByTestId("pgs-connection-result").getByText(/Connected to realm uat in \d+ ms/).waitFor()
    // Which release runs, for the admin comparing it with CHANGELOG.md.
    await d.page.getByTestId("pgs-plugin-version").getByText(`medusa-payment-pgs ${require("../../../package.json").version}`).waitFor()
    await d.page.getByRole("heading", { name: "Card testing" }).scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-settings-card-testing")
    // The secret shows masked only.
    await d.page.getByText(`••••••${s.sandbox.config.client_secret.slice(-4)}`).waitFor()
    expect(await d.page.content()).not.toContain(s.sandbox.config.client_secret)

    await d.page.getByRole("button", { name: "Add terminal" }).click()
    // Form errors in a form's words, under their fields.
    await d.page.getByLabel("Terminal id").fill("SBX")
    await d.page.getByLabel("Label", { exact: true }).fill("x".repeat(101))
    await d.page.getByRole("button", { name: "Save terminal" }).click()
    await d.page.locator("#pgs-terminal-label-error").getByText("At most 100 characters", { exact: true }).waitFor()
    await d.page.locator("#pgs-terminal-id-error").getByText("At least 5 characters", { exact: true }).waitFor()
    await d.page.locator("#pgs-terminal-label-error").scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-settings-form-words")
    await d.page.getByLabel("Label", { exact: true }).fill("Cards")
    await d.page.getByLabel("Terminal id").fill("SBX-CARDS-01")
    await d.page.getByLabel("Currencies").fill("EUR")
    await d.page.getByRole("combobox", { name: "Default transaction type" }).click()
    await d.page.getByRole("option", { name: "PURCHASE" }).click()
    await d.page.getByRole("combobox", { name: "Default locale" }).click()
    await d.page.getByRole("option", { name: "sv-SE" }).click()
    await d.page.getByLabel("--lib-accent-background-color").fill("#0a7d32")
    // An override with Embedded Fields: the server's error appears under the field.
    await d.page.getByLabel("3-D Secure notification URL override").fill("https://shop.example/3ds")
    await d.page.getByRole("button", { name: "Save terminal" }).click()
    await d.page.locator("#pgs-terminal-notification-url-error").getByText(/only for the Direct API/).waitFor()
    await d.page.locator("#pgs-terminal-notification-url-error").scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-settings-field-error")

    await d.page.getByLabel("3-D Secure notification URL override").fill("")
    await d.page.getByRole("button", { name: "Save terminal" }).click()
    await d.page.getByTestId("pgs-terminal-SBX-CARDS-01").waitFor()
    await d.page.getByTestId("pgs-terminal-SBX-CARDS-01").scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-settings-terminal-saved")
    await expectAccessible(d.page, "Settings → Payment Gateway", { include: ["main"], skip: MEDUSA_TOKENS })

    const session = await s.initiatePaymentSession((await s.createCart()).id, PGS_PROVIDER_ID)
    expect(sessionFields(session.data)).toMatchObject({ terminal_id: "SBX-CARDS-01", transaction_type: "PURCHASE", locale: "sv-SE", css_variables: { "--lib-accent-background-color": "#0a7d32" } })
  })

  it("names a terminal's methods for shoppers in each locale, one row per enabled method, the server's error under its input", async () => {
    await d.page.setViewportSize({ width: 1280, height: 900 })
    await d.page.goto(`${d.url}/app/settings/pgs`)
    await d.page.getByRole("button", { name: "Add terminal" }).click()
    await d.page.getByLabel("Terminal id").fill("SBX-ALL-001")
    await d.page.getByLabel("Currencies").fill("EUR")
    await d.page.getByRole("checkbox", { name: "All methods" }).click()
    // None ticked: refused in words, since shoppers would have no way to pay.
    await d.page.getByRole("button", { name: "Save terminal" }).click()
    await d.page.getByRole("alert").getByText(/choose at least one method, or All methods/).waitFor()
    // Each method by the name shoppers see, its identifier beside it.
    for (const m of ["Card pgs", "Other wallets (chosen on the next page) pgs-wallets", "Wallet One pgs-wallet-one-redirect"])
      await d.page.getByRole("checkbox", { name: m, exact: true }).click()
    const rows = d.page.getByRole("group", { name: /^Names of / })
    expect(await rows.count()).toBe(3)
    expect(await rows.nth(0).getByRole("textbox").count()).toBe(4)

    await d.page.getByLabel("pgs-wallets in en-US").fill("W".repeat(61))
    await d.page.getByLabel("pgs-wallets in sv-SE").fill("Swish och andra plånböcker")
    await d.page.getByLabel("pgs in sv-SE").fill("Bankkort")
    await d.page.getByRole("button", { name: "Save terminal" }).click()
    const error = d.page.getByRole("group", { name: "Names of pgs-wallets" }).getByRole("alert")
    await error.getByText("At most 60 characters", { exact: true }).waitFor()
    await error.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-method-names-1280")
    // On a phone the rows stack: the method, then its four inputs.
    await d.page.setViewportSize({ width: 360, height: 800 })
    await d.page.getByLabel("pgs-wallets in en-US").scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-method-names-360")
    await d.page.setViewportSize({ width: 1280, height: 900 })

    await d.page.getByLabel("pgs-wallets in en-US").fill("PayFriend and others")
    await d.page.getByRole("button", { name: "Save terminal" }).click()
    await d.page.getByTestId("pgs-terminal-SBX-ALL-001").waitFor()
    const saved = (await admin(s, "get", "/admin/pgs/settings/terminals")).data.terminals.find((t: any) => t.terminal_id === "SBX-ALL-001")
    expect(saved.method_names).toEqual({ pgs: { "sv-SE": "Bankkort" }, "pgs-wallets": { "en-US": "PayFriend and others", "sv-SE": "Swish och andra plånböcker" } })
  })

  it("shows the webhook timeline of an order paid through the sandbox, and syncs it from the gateway", async () => {
    const { orderId, transactionId } = await paidOrder(s)
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    const widget = d.page.getByRole("region", { name: "Payment gateway" }).or(d.page.locator('[aria-label="Payment gateway"]')).first()
    await widget.getByText(transactionId).first().waitFor({ timeout: 30_000 })
    await widget.getByTestId("pgs-timeline-event").first().waitFor()
    expect(await widget.getByText("Approved", { exact: true }).count()).toBeGreaterThan(0)
    await widget.getByText("Payment approved").first().waitFor()
    // The dashboard scrolls inside its own container: bring the widget into the picture.
    await widget.getByTestId("pgs-timeline-event").first().scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-order-timeline")

    const [synced] = await Promise.all([
      d.page.waitForResponse((r) => r.url().endsWith(`/admin/pgs/orders/${orderId}/sync`) && r.request().method() === "POST"),
      widget.getByRole("button", { name: "Sync from gateway" }).click(),
    ])
    expect(synced.status()).toBe(200)
    await d.page.getByText("Read from the gateway").waitFor()
    await widget.getByTestId("pgs-timeline-event").first().scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-order-synced")
    await expectAccessible(d.page, "the order widget", { include: ['[aria-label="Payment gateway"]'], skip: MEDUSA_TOKENS })
  })

  it("creates a bank-account payout after correcting a field, and shows it in the list and its details (pending: what settles it)", async () => {
    await d.page.goto(`${d.url}/app/pgs-payouts`)
    await d.page.getByRole("button", { name: "Create payout" }).click()
    const reference = `po-browser-${Date.now().toString(36)}`
    await d.page.getByLabel("Reference").first().fill(reference)
    await d.page.getByLabel("Amount").fill("12.50")
    await d.page.getByLabel("Account number").fill("12 34")
    await d.page.getByLabel("Account holder name").fill("Grace Hopper")
    await d.page.getByRole("button", { name: "Send payout" }).click()
    await d.page.locator("#pgs-payout-account_number-error").getByText(/letters or digits/).waitFor()
    await d.page.locator("#pgs-payout-description-error").getByText("Required", { exact: true }).waitFor()
    await d.page.getByLabel("Description").fill("x".repeat(101))
    await d.page.getByRole("button", { name: "Send payout" }).click()
    await d.page.locator("#pgs-payout-description-error").getByText("At most 100 characters", { exact: true }).waitFor()
    await d.page.getByLabel("Description").fill("Supplier refund")
    await d.page.locator("#pgs-payout-account_number-error").scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-payout-field-error")
    await expectAccessible(d.page, "the payout form with its field errors", { include: ["main"], exclude: [MEDUSA_SEARCH_ICON], skip: MEDUSA_TOKENS })

    await d.page.getByLabel("Account number").fill("DE89370400440532013000")
    await d.page.getByRole("button", { name: "Send payout" }).click()
    const row = d.page.getByTestId("pgs-payout-row").filter({ hasText: reference })
    await row.waitFor()
    // The amount in the currency's decimals (the number 12.5 was shown before), the status in words.
    await row.getByText("12.50 EUR", { exact: true }).waitFor()
    await row.getByText("Pending", { exact: true }).waitFor()
    await screenshot(d.page, "admin-payouts-list")
    // At a phone's width the table scrolls in its own box: the page itself does not scroll sideways.
    const viewport = d.page.viewportSize()!
    await d.page.setViewportSize({ width: 360, height: 800 })
    const sideways = () => d.page.evaluate(() => Array.from(document.querySelectorAll("main")).map((m) => m.scrollWidth - m.clientWidth))
    await row.waitFor()
    expect(await sideways()).toEqual([0])
    await screenshot(d.page, "admin-payouts-list-360")
    await d.page.goto(`${d.url}/app/settings/pgs`)
    await d.page.getByRole("button", { name: "Add terminal" }).waitFor()
    expect(await sideways()).toEqual([0])
    await screenshot(d.page, "admin-settings-360")
    await d.page.setViewportSize(viewport)
    await d.page.goto(`${d.url}/app/pgs-payouts`)
    await row.getByRole("link", { name: reference }).click()
    await d.page.getByRole("heading", { name: `Payout ${reference}` }).waitFor()
    await d.page.getByText("****3000").waitFor()
    // Still pending at the gateway: the page says, in plain words, what settles it.
    await d.page.getByTestId("pgs-payout-pending").getByText(/settles it by itself and sends a webhook, which updates the\s+status here/).waitFor()
    await screenshot(d.page, "admin-payout-details")
    await expectAccessible(d.page, "a payout's details", { include: ["main"], skip: MEDUSA_TOKENS })
    const listed = await admin(s, "get", `/admin/pgs/payouts?reference=${reference}`)
    expect(listed.data.payouts).toHaveLength(1)
  })

  it("deletes a customer's saved card from the customer page", async () => {
    const { customerId, card } = await customerWithSavedCard(s)
    await d.page.goto(`${d.url}/app/customers/${customerId}`)
    const cardRow = d.page.getByTestId("pgs-saved-card")
    await cardRow.getByText(card.masked).waitFor({ timeout: 30_000 })
    await cardRow.getByText("07/2031").waitFor()
    await cardRow.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-customer-saved-cards")
    await expectAccessible(d.page, "the customer's saved cards", { include: ['[aria-label="Saved cards"]'], skip: MEDUSA_TOKENS })
    await cardRow.getByRole("button", { name: `Delete card ${card.masked}` }).click()
    await d.page.getByRole("alertdialog").getByRole("button", { name: "Delete" }).click()
    await d.page.getByText("No saved cards.").waitFor()
    await d.page.getByText("No saved cards.").scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-customer-card-deleted")
    expect((await admin(s, "get", `/admin/pgs/customers/${customerId}/saved-cards`)).data.saved_cards).toEqual([])
  })
})
