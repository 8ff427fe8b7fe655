/**
 * Money after checkout in the real dashboard: an order edit leaves the order owing more (the dashboard offers
 * "Copy payment link"), the payer pays the new collection through our store routes, and the order page shows the
 * payment and, once captured, nothing outstanding. Screenshots: artifacts/screenshots/admin-order-payment-*.png.
 */
import { attachTransaction, payInFrame } from "../../http/support/checkout"
import { adminOrder, applyPayment, collectionSession, orderOwingMore } from "../../http/support/order-payments"
import { screenshot } from "../support"
import { browserBody } from "../browser-store"

export default browserBody("money after checkout in the dashboard", (s, d) => {
  it("shows the outstanding amount with Copy payment link, then the payment made through the payment page", async () => {
    const { orderId, collectionId } = await orderOwingMore(s)
    await d.page.goto(`${d.url}/app/orders/${orderId}`)
    await d.page.getByText("Copy payment link").first().waitFor({ timeout: 60_000 })
    await screenshot(d.page, "admin-order-payment-outstanding")

    const session = (await collectionSession(s, collectionId, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
    await attachTransaction(s, session.id, transactionId)
    expect((await applyPayment(s, collectionId, session.id)).data.status).toBe("applied")
    const paid = (await adminOrder(s, orderId)).payment_collections.find((c: any) => c.id === collectionId)
    const capture = await s.api.post(`/admin/payments/${paid.payments[0].id}/capture`, {}, { headers: await s.adminHeaders() })
    expect(capture.status).toBe(200)

    await d.page.reload()
    await d.page.getByText(/Paid/).first().waitFor({ timeout: 60_000 })
    expect(await d.page.getByText("Copy payment link").count()).toBe(0)
    await screenshot(d.page, "admin-order-payment-paid")
  })
})
