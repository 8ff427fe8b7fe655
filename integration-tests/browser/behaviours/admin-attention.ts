/**
 * Payment gateway → Needs attention and the order widget's words, in the real dashboard (built with Medusa's
 * bundler, served next to the store) in Chromium. What the page lists is made the real way: bank-redirect
 * checkouts whose webhooks never arrive and the reconciliation job run for later times (a late payment given back,
 * an order given up, a transaction still not final after days). Screenshots land in artifacts/screenshots/admin-*.png.
 */
import { paidOrder } from "../../http/support/admin-pgs"
import { HOUR, MINUTE, decideAtGateway, manageAtGateway, orderAwaitingBank, orderCanceledWhileCapturedAtGateway, orderCanceledWithRefundDeclined, paidAfterTheCartMovedOn, runReconcile, unconfirmedRefund, unreachable } from "../../http/support/attention"
import { adminPayment, adminPost, approvedOperations, paymentOfOrder } from "../../http/support/checkout"
import { deliver, deliverSigned, gatewayEventUnderAnotherKey, processedEvent, refusalsSettled, waitFor } from "../../http/support/webhooks"
import { MEDUSA_TOKENS } from "../admin-support"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { openFollowUp } from "../../../src/modules/pgs/follow-ups"
import { expectAccessible, screenshot } from "../support"
import type { Locator } from "playwright-core"
import { browserBody } from "../browser-store"

/** Where an element ends on the page, in CSS pixels: past the viewport's width means scrolling sideways to reach it. */
async function rightEdge(locator: Locator): Promise<number> {
  const box = await locator.boundingBox()
  if (!box) throw new Error("the element is not shown")
  return box.x + box.width
}

export default browserBody("needs attention in the dashboard", (s, d) => {
  /** The transaction's item on Needs attention, pictured at 1440 and 360 px, where it must fit without scrolling sideways. */
  async function pictureItem(title: string, transactionId: string, text: RegExp, name: string) {
    await d.page.setViewportSize({ width: 1440, height: 1000 })
    await d.page.goto(`${d.url}/app/pgs/attention`)
    const item = d.page.getByTestId("pgs-attention-item").filter({ hasText: title }).filter({ hasText: transactionId })
    await item.getByText(text).waitFor({ timeout: 30_000 })
    await item.scrollIntoViewIfNeeded()
    await screenshot(d.page, name)
    await d.page.setViewportSize({ width: 360, height: 900 })
    await item.scrollIntoViewIfNeeded()
    await screenshot(d.page, `${name}-360`)
    expect(await rightEdge(item)).toBeLessThanOrEqual(360)
  }

  it("lists a late payment given back and an order given up, and re-reads a transaction stuck at the gateway", async () => {
    const gateway = await unreachable(s)
    try {
      const late = await paidAfterTheCartMovedOn(s)
      const abandoned = await orderAwaitingBank(s)
      // Every 6 hours for 4 days: the late payment goes back at once, the order is given up after 72 hours, and
      // after 16 reads still PENDING the transaction is handed to a person.
      for (let run = 0; run <= 16; run++) await runReconcile(s, 16 * MINUTE + run * 6 * HOUR)

      await d.page.goto(`${d.url}/app/orders`)
      // The sidebar: "Payment gateway", and under it "Needs attention".
      await d.page.getByRole("link", { name: "Payment gateway" }).click()
      await d.page.getByRole("heading", { name: "Payment gateway" }).waitFor()
      await d.page.getByRole("link", { name: /Needs attention.*1$/ }).waitFor()
      await screenshot(d.page, "admin-payment-gateway")
      await d.page.getByRole("link", { name: "Needs attention" }).first().click()
      await d.page.waitForURL((u) => u.pathname === "/app/pgs/attention")
      const rows = d.page.getByTestId("pgs-attention-item")
      const stuck = rows.filter({ hasText: "Still not final" })
      await stuck.waitFor({ timeout: 30_000 })
      await rows.filter({ hasText: "Late payment given back" }).filter({ hasText: late.transactionId }).waitFor()
      const gaveUp = rows.filter({ hasText: "Order given up" })
      await gaveUp.getByText(/never finished paying \d+\.\d{2} EUR at their bank/).waitFor()
      expect(await d.page.getByTestId("pgs-attention-open-count").textContent()).toBe("1")
      // Open first.
      await expect(rows.first().textContent()).resolves.toContain("Still not final")
      expect(await gaveUp.getByRole("link", { name: /^Order #\d+$/ }).getAttribute("href")).toBe(`/app/orders/${abandoned.orderId}`)
      await screenshot(d.page, "admin-attention-list")
      await expectAccessible(d.page, "Needs attention", { include: ["main"], skip: MEDUSA_TOKENS })

      // The bank pays after all; the admin re-reads it instead of waiting for the next run.
      await decideAtGateway(s, abandoned.transactionId, "APPROVED")
      await stuck.getByRole("button", { name: "Re-read from gateway" }).click()
      await d.page.getByText(/webhook had not come: the money was given back/).waitFor()
      await d.page.getByTestId("pgs-attention-empty").getByText("Nothing needs attention.").waitFor()
      await rows.filter({ hasText: "Late payment given back" }).filter({ hasText: abandoned.transactionId }).waitFor()
      expect(await d.page.getByTestId("pgs-attention-open-count").textContent()).toBe("0")
      await screenshot(d.page, "admin-attention-reread")
    } finally {
      await gateway.reachable()
    }
  })

  it("shows the order's payment in a shop admin's words after a capture here and a refund in the gateway dashboard", async () => {
    const { orderId, session, transactionId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, {})).status).toBe(200)
    const refundId = await manageAtGateway(s, session, transactionId, "REFUND", 500)
    await processedEvent(s, refundId)

    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    const widget = d.page.locator('[aria-label="Payment gateway"]').first()
    await widget.getByTestId("pgs-medusa-state").getByText("Partially refunded").waitFor({ timeout: 30_000 })
    await widget.getByTestId("pgs-medusa-state").getByText(/captured \d+\.\d{2} EUR · refunded 5\.00 EUR/).waitFor()
    const events = widget.getByTestId("pgs-timeline-event")
    await events.filter({ hasText: "Payment approved" }).filter({ hasText: "Recorded in Medusa" }).first().waitFor()
    await events.filter({ hasText: "Captured at the gateway" }).filter({ hasText: "Made in Medusa" }).filter({ hasText: /· by admin-.*@example\.com/ }).waitFor()
    await events.filter({ hasText: "Refunded at the gateway · 5.00 EUR" }).filter({ hasText: "Refund made in the gateway dashboard, recorded here" }).waitFor()
    const text = (await widget.textContent()) ?? ""
    for (const internal of ["transaction-svc:", "applied:", "ignored:", "Medusa session"]) expect(text).not.toContain(internal)
    await events.last().scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-order-words")
  })

  it("removes from the order, after asking, a refund the gateway never confirmed", async () => {
    const { orderId, transactionId } = await unconfirmedRefund(s)
    // The order page first: Medusa counts the refund; the widget marks it and says Medusa's sums include it.
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    const orderWidget = d.page.locator('[aria-label="Payment gateway"]').first()
    await orderWidget.getByTestId("pgs-operations").getByText("Not confirmed by the gateway").waitFor({ timeout: 30_000 })
    await orderWidget.getByTestId("pgs-unconfirmed-note").getByText(/^Medusa's sums include an operation the gateway has not confirmed.* it is listed under Needs attention, where a person decides\.$/).waitFor()
    await orderWidget.getByTestId("pgs-operations").scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-order-unconfirmed-refund")
    await d.page.goto(`${d.url}/app/pgs/attention`)
    const item = d.page.getByTestId("pgs-attention-item").filter({ hasText: "Not confirmed by the gateway" }).filter({ hasText: transactionId })
    await item.getByText(/Medusa recorded a refund of 4\.00 EUR .* never confirmed/).waitFor({ timeout: 30_000 })
    await screenshot(d.page, "admin-attention-unconfirmed-refund")
    await d.page.setViewportSize({ width: 360, height: 900 })
    await item.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-attention-unconfirmed-refund-360")
    // On a phone the whole item fits the screen: its order, amount and button are under its sentence, not off
    // to the right.
    await item.getByTestId("pgs-attention-item-narrow").getByText("4.00 EUR").waitFor()
    expect(await rightEdge(item.getByRole("button", { name: "Remove from the order" }))).toBeLessThanOrEqual(360)
    expect(await rightEdge(item)).toBeLessThanOrEqual(360)
    await d.page.setViewportSize({ width: 1440, height: 1000 })
    await item.getByRole("button", { name: "Remove from the order" }).click()
    const ask = d.page.getByRole("alertdialog")
    await ask.getByText("Remove it from the order?").waitFor()
    await screenshot(d.page, "admin-attention-remove-prompt")
    await expectAccessible(d.page, "the prompt before removing a refund", { include: ['[role="alertdialog"]'], skip: MEDUSA_TOKENS })
    await ask.getByRole("button", { name: "Remove" }).click()
    await d.page.getByText(/Removed from the order\. If the gateway's message for it arrives after all/).waitFor()
    await item.getByText(/removed it from the order\.$/).waitFor()
    expect(await item.getByRole("button", { name: "Remove from the order" }).count()).toBe(0)
    // The order page: Medusa no longer counts the refund.
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    const widget = d.page.locator('[aria-label="Payment gateway"]').first()
    await widget.getByTestId("pgs-medusa-state").getByText(/captured \d+\.\d{2} EUR/).waitFor({ timeout: 30_000 })
    expect(await widget.getByTestId("pgs-medusa-state").textContent()).not.toMatch(/refunded/)
    expect(await widget.getByText("Not confirmed by the gateway").count()).toBe(0)
    await widget.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-order-after-removal")
  })

  it("lists a void the gateway declined, and says on the canceled order where its captured money is refunded", async () => {
    const { orderId, transactionId, payment } = await orderCanceledWhileCapturedAtGateway(s)
    await pictureItem("Void not made", transactionId, /void this payment of 25\.50 EUR, and it was not voided: the gateway declined the VOID/, "admin-attention-void-not-made")
    // The order page: the capture made at the gateway is recorded; its refund is not offered here, and the widget
    // says where to make it.
    await d.page.setViewportSize({ width: 1440, height: 1000 })
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    const widget = d.page.locator('[aria-label="Payment gateway"]').first()
    await widget.getByTestId("pgs-canceled-refund").getByText(/25\.50 EUR captured is not refunded\. .*refund it in the gateway's dashboard/).waitFor({ timeout: 30_000 })
    expect(await widget.getByRole("button", { name: "Refund…" }).count()).toBe(0)
    await widget.getByTestId("pgs-order-attention").waitFor()
    await widget.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-order-canceled-captured")
    await d.page.setViewportSize({ width: 360, height: 900 })
    await widget.getByTestId("pgs-canceled-refund").scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-order-canceled-captured-360")
    await d.page.setViewportSize({ width: 1440, height: 1000 })
    // Medusa's own refund drawer on the same order: refused in words, and no money moves.
    await d.page.goto(`${d.url}/app/orders/${orderId}/refund?paymentId=${payment.id}`)
    const drawer = d.page.getByRole("dialog")
    await drawer.getByText("Create Refund").waitFor({ timeout: 30_000 })
    await drawer.getByRole("textbox").first().fill("5")
    await drawer.getByRole("button", { name: "Save" }).click()
    const refusal = d.page.getByText(/This order is canceled, and Medusa cannot record a refund on a canceled order\. Refund the payment in the gateway's dashboard/)
    await refusal.waitFor()
    // The toast slides in from above: the picture is taken once all of it is on the screen.
    await waitFor(async () => ((await refusal.boundingBox())?.y ?? -1) >= 0, { what: "the refusal toast fully shown" })
    await screenshot(d.page, "admin-medusa-refund-canceled")
    expect((await adminPayment(s, payment.id)).refunds).toHaveLength(0)
    expect(await approvedOperations(s.sandbox, transactionId, "REFUND")).toHaveLength(0)
  })

  it("lists a refund Medusa's cancel did not get, and the canceled order's widget says what is left", async () => {
    const { orderId, transactionId } = await orderCanceledWithRefundDeclined(s)
    await pictureItem("Refund not made", transactionId, /was canceled while its payment still held 20\.50 EUR captured, by Medusa's records: Medusa asked the gateway to refund it/, "admin-attention-refund-not-made")
    // The order page (pictured: Medusa's payments show only the 5.00 refunded at the gateway; the order's
    // transactions are checked in webhooks.spec.ts); the widget says what is left.
    await d.page.setViewportSize({ width: 1440, height: 1000 })
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    const widget = d.page.locator('[aria-label="Payment gateway"]').first()
    await widget.getByTestId("pgs-canceled-refund").getByText(/20\.50 EUR captured is not refunded\./).waitFor({ timeout: 30_000 })
    await screenshot(d.page, "admin-order-refund-not-made")
    await widget.scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-order-refund-not-made-widget")
  })

  it("pages through a long record with Next and Previous (keyset pages: page 2 goes on from page 1's last row)", async () => {
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    // 25 records the plugin settled by itself, newest last: one page of 20 and a second of 5 (and what earlier tests left).
    for (let i = 0; i < 25; i++) {
      const { row } = await openFollowUp(knex, { key: `gave-up:order_paging_${i}`, kind: "gave_up", state: "done", order_id: `order_paging_${i}`, note: `Paging record ${i}.` })
      await knex("pgs_follow_up").where({ id: row.id }).update({ updated_at: new Date(Date.now() + 60_000 + i * 1000) })
    }
    await d.page.goto(`${d.url}/app/pgs/attention`)
    const rows = d.page.getByTestId("pgs-attention-item")
    await rows.first().getByText("Paging record 24.").waitFor({ timeout: 30_000 })
    expect(await rows.count()).toBe(20)
    await d.page.getByText("Items, page 1").waitFor()
    await d.page.getByRole("button", { name: "Next" }).click()
    await d.page.getByText("Items, page 2").waitFor()
    await rows.first().getByText("Paging record 4.").waitFor()
    await screenshot(d.page, "admin-attention-page-2")
    await d.page.setViewportSize({ width: 360, height: 800 })
    // The dashboard scrolls inside its own container: bring the pager into view for the narrow screenshot.
    await d.page.getByText("Items, page 2").scrollIntoViewIfNeeded()
    await screenshot(d.page, "admin-attention-page-2-360")
    expect(await rightEdge(rows.first())).toBeLessThanOrEqual(360)
    expect(await rightEdge(d.page.getByRole("button", { name: "Next" }))).toBeLessThanOrEqual(360)
    await d.page.setViewportSize({ width: 1280, height: 900 })
    await d.page.getByRole("button", { name: "Previous" }).click()
    await d.page.getByText("Items, page 1").waitFor()
    await rows.first().getByText("Paging record 24.").waitFor()
    expect(await d.page.getByRole("button", { name: "Previous" }).isDisabled()).toBe(true)
  })

  it("shows a banner and lists the refused webhooks while their signature does not match PGS_WEBHOOK_PUBLIC_KEY, until one verifies", async () => {
    // The gateway's own events under a key the store does not hold (forgeries by anyone else raise nothing).
    for (const _ of [1, 2]) {
      const { body, authorization } = await gatewayEventUnderAnotherKey(s)
      expect((await deliver(s, body, { authorization })).status).toBe(401)
    }
    await refusalsSettled(s)
    const banner = d.page.getByTestId("pgs-health-webhooks")
    await waitFor(async () => {
      await d.page.goto(`${d.url}/app/pgs`)
      return (await banner.waitFor({ timeout: 5_000 }).then(() => true, () => null))
    }, { what: "the refused-webhooks banner", timeoutMs: 60_000 })
    expect(await banner.textContent()).toMatch(/does not match PGS_WEBHOOK_PUBLIC_KEY: 2 deliveries refused/)
    await screenshot(d.page, "admin-webhooks-refused-banner")
    await d.page.goto(`${d.url}/app/pgs/attention`)
    await d.page.getByTestId("pgs-attention-item").filter({ hasText: "Webhooks refused" }).waitFor()
    await screenshot(d.page, "admin-webhooks-refused-attention")

    expect((await deliverSigned(s, JSON.stringify({ verified_again: true }))).status).toBe(200)
    await waitFor(async () => {
      await d.page.goto(`${d.url}/app/pgs`)
      await d.page.getByRole("heading", { name: "Payment gateway" }).waitFor()
      return (await banner.count()) === 0 ? true : null
    }, { what: "the banner gone once a delivery verifies", timeoutMs: 60_000 })
  })
})
