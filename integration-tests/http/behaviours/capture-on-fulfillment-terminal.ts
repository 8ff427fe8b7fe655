/**
 * Capture on fulfillment switched on for one terminal in the settings (Settings → Payment Gateway → a terminal's
 * "Capture on fulfillment"), with the option captureOnFulfillment off.
 */
import { adminPayment } from "../support/checkout"
import { admin } from "../support/admin-pgs"
import { storeBody } from "../support/store"
import { waitFor } from "../support/webhooks"
import { capturesOf, fulfill, gatewayRecord, orderOfThree } from "../support/capture"
import { captureOnFulfillment } from "../../../src/workflows/capture-on-fulfillment"

export default storeBody("capture on fulfillment, switched on per terminal", (s) => {
  it("captures nothing while the option is off, and captures once the payment's terminal switches it on in the settings", async () => {
    const before = await orderOfThree(s)
    expect((await fulfill(s, before.orderId, before.where, [{ id: before.item.id, quantity: 1 }])).status).toBe(200)
    const fulfillments = (await admin(s, "get", `/admin/orders/${before.orderId}?fields=id,fulfillments.id`)).data.order.fulfillments
    expect(await captureOnFulfillment(s.container(), { order_id: before.orderId, fulfillment_id: fulfillments[0].id })).toEqual({ done: "skipped", why: "capture on fulfillment is off" })
    expect((await adminPayment(s, before.payment.id)).captures).toEqual([])

    const created = await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-ALL-001", currency_codes: ["EUR"], capture_on_fulfillment: true })
    expect(created.status).toBe(201)
    expect(created.data.terminal).toMatchObject({ terminal_id: "SBX-ALL-001", capture_on_fulfillment: true })
    expect((await admin(s, "post", "/admin/pgs/settings/terminals", { terminal_id: "SBX-ALL-001", capture_on_fulfillment: "yes" })).status).toBe(400)

    const after = await orderOfThree(s)
    expect((await fulfill(s, after.orderId, after.where, [{ id: after.item.id, quantity: 1 }])).status).toBe(200)
    expect((await capturesOf(s, after.payment.id, 1)).captures.map((c: any) => Number(c.amount))).toEqual([25.5])
    // Medusa writes the capture row before the gateway answers: the gateway's record is polled, not read once.
    await waitFor(async () => ((await gatewayRecord(s, after.transactionId)).captured_amount === 2550 ? true : null), { what: "the capture at the gateway" })
  })
})
