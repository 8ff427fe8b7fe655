/**
 * The order widget's "Capture…" and "Refund…" in the real dashboard (built with Medusa's bundler) in Chromium:
 * an admin captures part of an authorized payment and refunds part of what was captured, and the gateway shows
 * exactly those amounts. Screenshots land in artifacts/screenshots/admin-capture-*.png (1280 and 360 px wide).
 */
import { paidOrder } from "../../http/support/admin-pgs"
import { BERLIN, taxGermany } from "../../http/support/tax"
import { adminPayment, adminPost, approvedOperations, paymentOfOrder } from "../../http/support/checkout"
import { returnEverything } from "../../http/support/order-changes"
import { gatewayRecord, operate } from "../../http/support/capture"
import { MEDUSA_TOKENS } from "../admin-support"
import { expectAccessible, screenshot } from "../support"
import { browserBody } from "../browser-store"

export default browserBody("partial capture in the dashboard", (s, d) => {
  /** A paid 25.50 EUR order with `amount` of it captured. */
  async function capturedOrder(amount: number) {
    const { orderId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    expect((await operate(s, payment.id, "capture", amount)).status).toBe(200)
    return { orderId, payment }
  }

  /** The order page at 1280 px, and the plugin's widget on it. */
  async function orderWidget(orderId: string) {
    await d.page.setViewportSize({ width: 1280, height: 900 })
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    return d.page.locator('[aria-label="Payment gateway"]').first()
  }

  it("captures part of the payment and refunds part of what was captured from the order widget", async () => {
    const { orderId, transactionId } = await paidOrder(s) // 25.50 EUR authorized
    await d.page.setViewportSize({ width: 1280, height: 900 })
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    const widget = d.page.locator('[aria-label="Payment gateway"]').first()

    await widget.getByRole("button", { name: "Capture…" }).click({ timeout: 30_000 })
    const captureForm = widget.getByRole("form", { name: "Capture part of the payment" })
    const amount = captureForm.getByLabel("Amount (EUR)")
    await amount.fill("30")
    await captureForm.getByText("At most 25.50 EUR").waitFor()
    await amount.fill("10.005")
    await captureForm.getByText(/at most 2 decimals/).waitFor()
    await amount.fill("10")
    await captureForm.getByText("Up to 25.50 EUR left to capture; the rest stays authorized.").waitFor()
    await captureForm.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-capture-form-1280")
    await expectAccessible(d.page, "the capture form", { include: ['[aria-label="Payment gateway"]'], skip: MEDUSA_TOKENS })
    await captureForm.getByRole("button", { name: "Capture" }).click()
    const operations = widget.getByTestId("pgs-operations")
    await operations.getByText("Captured 10.00 EUR").waitFor({ timeout: 30_000 })
    // Medusa's own Summary shows it too, without a reload: the widget invalidates the dashboard's cached order.
    await d.page.getByText("Paid Total", { exact: true }).first().locator("xpath=..").filter({ hasText: "10.00" }).waitFor({ timeout: 15_000 })

    await widget.getByRole("button", { name: "Refund…" }).click()
    const refundForm = widget.getByRole("form", { name: "Refund part of the payment" })
    await refundForm.getByLabel("Amount (EUR)").fill("4")
    await refundForm.getByLabel("Note (optional)").fill("One item arrived scratched")
    await refundForm.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-refund-form-1280")
    await expectAccessible(d.page, "the refund form", { include: ['[aria-label="Payment gateway"]'], skip: MEDUSA_TOKENS })
    await refundForm.getByRole("button", { name: "Refund" }).click()
    await operations.getByText("Refunded 4.00 EUR").waitFor({ timeout: 30_000 })
    await operations.getByTestId("pgs-operation-note").getByText("“One item arrived scratched”").waitFor()
    // The authorization stays "Approved" at the gateway; beside it, what the gateway confirmed since.
    await widget.getByTestId("pgs-gateway-sums").getByText("captured 10.00 EUR · refunded 4.00 EUR").waitFor()

    expect(await gatewayRecord(s, transactionId)).toMatchObject({ captured_amount: 1000, refunded_amount: 400, final_capture: false })
    expect((await approvedOperations(s.sandbox, transactionId, "CAPTURE")).map((o) => o.amount)).toEqual([1000])

    // The rest, as the final capture.
    await widget.getByRole("button", { name: "Capture…" }).click()
    await widget.getByRole("form", { name: "Capture part of the payment" }).getByText(/the final capture/).waitFor()
    await widget.getByRole("form", { name: "Capture part of the payment" }).getByRole("button", { name: "Capture" }).click()
    await operations.getByText("Final capture").waitFor({ timeout: 30_000 })
    expect(await gatewayRecord(s, transactionId)).toMatchObject({ captured_amount: 2550, final_capture: true })
    await expect(operations.textContent()).resolves.toMatch(/by Ada Admin \(admin-.*@example.com\)/)
    await operations.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-capture-done-1280")
    await d.page.setViewportSize({ width: 360, height: 800 })
    await operations.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-capture-done-360")
  })

  it("captures and refunds everything of a taxed payment from the widget, Medusa's records ending exact", async () => {
    // 19 % VAT on prices without tax: the 25.50 EUR item is 30.345 EUR by Medusa's totals, 30.35 at the gateway.
    await taxGermany(s)
    const { orderId, transactionId } = await paidOrder(s, "frictionless_approved", { shipping_address: BERLIN })
    const payment = await paymentOfOrder(s, orderId)
    expect(payment.amount).toBe(30.345)
    await d.page.setViewportSize({ width: 1280, height: 900 })
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    const widget = d.page.locator('[aria-label="Payment gateway"]').first()
    const operations = widget.getByTestId("pgs-operations")

    await widget.getByRole("button", { name: "Capture…" }).click({ timeout: 30_000 })
    const captureForm = widget.getByRole("form", { name: "Capture part of the payment" })
    await expect(captureForm.getByLabel("Amount (EUR)").inputValue()).resolves.toBe("30.35")
    await captureForm.getByText(/the final capture/).waitFor()
    await captureForm.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-capture-taxed-form-1280")
    await captureForm.getByRole("button", { name: "Capture" }).click()
    await operations.getByText("Final capture").waitFor({ timeout: 30_000 })

    await widget.getByRole("button", { name: "Refund…" }).click()
    const refundForm = widget.getByRole("form", { name: "Refund part of the payment" })
    // Nothing is owed to the customer: the admin says how much (everything left goes as Medusa's exact rest).
    await expect(refundForm.getByLabel("Amount (EUR)").inputValue()).resolves.toBe("")
    // Nothing typed yet is no error: the hint says what may be refunded.
    await refundForm.getByText("Up to 30.35 EUR captured and not refunded.", { exact: true }).waitFor()
    expect(await refundForm.getByRole("alert").count()).toBe(0)
    await refundForm.getByLabel("Amount (EUR)").fill("30.35")
    await refundForm.getByRole("button", { name: "Refund" }).click()
    await operations.getByText("Refunded 30.35 EUR").waitFor({ timeout: 30_000 })
    await operations.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-capture-taxed-done-1280")

    expect(await gatewayRecord(s, transactionId)).toMatchObject({ captured_amount: 3035, refunded_amount: 3035, final_capture: true })
    const recorded = await adminPayment(s, payment.id)
    expect({ captures: recorded.captures.map((c: any) => c.amount), refunds: recorded.refunds.map((r: any) => r.amount) }).toEqual({ captures: [30.345], refunds: [30.345] })
  })

  it("lists a taxed refund of a fraction of a cent that needed nothing sent, saying so", async () => {
    await taxGermany(s)
    const { orderId } = await paidOrder(s, "frictionless_approved", { shipping_address: BERLIN })
    const payment = await paymentOfOrder(s, orderId)
    // 7.7451 is sent as 7.75; 0.0018 more is still within it: the gateway is not asked (http/behaviours/taxed-cart.ts).
    for (const [what, amount] of [["capture", 30.345], ["refund", 7.7451], ["refund", 0.0018]] as const)
      expect((await operate(s, payment.id, what, amount)).status).toBe(200)
    await d.page.setViewportSize({ width: 1280, height: 900 })
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    const operations = d.page.locator('[aria-label="Payment gateway"]').first().getByTestId("pgs-operations")
    await operations.getByText(/nothing sent/).waitFor({ timeout: 30_000 })
    await expect(operations.getByText("Refunded 7.75 EUR").count()).resolves.toBe(1)
    await operations.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-capture-nothing-sent-1280")
  })

  it("starts a refund at what Medusa says the customer is owed after a return, not at everything captured", async () => {
    const { orderId, payment } = await capturedOrder(25.5)
    await returnEverything(s, orderId)
    const widget = await orderWidget(orderId)
    // Named as Medusa's own Payments section names it.
    await widget.getByTestId("pgs-payment-name").getByText(`Payment #${payment.id.slice(-7)}`).waitFor({ timeout: 30_000 })
    await widget.getByRole("button", { name: "Refund…" }).click({ timeout: 30_000 })
    const refundForm = widget.getByRole("form", { name: "Refund part of the payment" })
    await refundForm.getByText("Up to 25.50 EUR captured and not refunded. Medusa says the customer is owed 25.50 EUR.").waitFor()
    await expect(refundForm.getByLabel("Amount (EUR)").inputValue()).resolves.toBe("25.50")
    await refundForm.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-refund-owed-1280")
  })

  it("says on a canceled order that the part of a partly captured authorization never captured stays held, not to void it", async () => {
    const { orderId } = await capturedOrder(10)
    expect((await adminPost(s, `/admin/orders/${orderId}/cancel`, {})).status).toBe(200)
    const held = (await orderWidget(orderId)).getByTestId("pgs-canceled-authorized")
    await held.getByText(/^The order is canceled and 15\.50 EUR of the authorization was never captured\. The gateway voids an authorization only before any capture/).waitFor({ timeout: 30_000 })
    expect(await held.textContent()).not.toMatch(/void it in the gateway's dashboard/)
    await held.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-canceled-held-1280")
  })

  it("switches capture on fulfillment on for a terminal in Settings → Payment Gateway", async () => {
    await d.page.setViewportSize({ width: 1280, height: 900 })
    await d.page.goto(`${d.url}/app/settings/pgs`)
    await d.page.getByRole("button", { name: "Add terminal" }).click({ timeout: 30_000 })
    await d.page.getByLabel("Terminal id").fill("SBX-ALL-001")
    await d.page.getByLabel("Currencies").fill("EUR")
    const toggle = d.page.getByRole("switch", { name: /Capture on fulfillment/ })
    await toggle.click()
    await toggle.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-settings-capture-on-fulfillment-1280")
    await d.page.getByRole("button", { name: "Save terminal" }).click()
    await d.page.getByTestId("pgs-terminal-SBX-ALL-001").waitFor()
    const terminals = (await s.api.get("/admin/pgs/settings/terminals", { headers: await s.adminHeaders() })).data.terminals
    expect(terminals.map((t: any) => [t.terminal_id, t.capture_on_fulfillment])).toEqual([["SBX-ALL-001", true]])
  })
})
