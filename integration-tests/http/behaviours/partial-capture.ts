/**
 * Partial capture and refund from the dashboard: the order widget calls Medusa's own POST /admin/payments/:id/capture
 * and /refund (so Medusa's workflows record them), the provider flags the capture that takes the rest as the final
 * capture at the gateway, one operation of a payment runs at a time and one the admin did not see coming is refused
 * (double click, two admins), and the order's gateway view says who made each operation as Medusa recorded it.
 */
import { adminPayment, approvedOperations, paymentOfOrder } from "../support/checkout"
import { admin, paidOrder } from "../support/admin-pgs"
import { storeBody } from "../support/store"
import { manageAtGateway, processedEvent, waitFor } from "../support/webhooks"
import { adminToken } from "../support/admin"
import { gatewayRecord, operate, secretKey } from "../support/capture"
import { listHeldAfterCancel } from "../../../src/workflows/held-after-cancel"

export default storeBody("partial capture and refund from the dashboard", (s) => {
  it("captures part of an authorization, refunds part of what was captured, then captures the rest as the final capture", async () => {
    const { orderId, transactionId } = await paidOrder(s) // 25.50 EUR authorized
    const payment = await paymentOfOrder(s, orderId)

    expect((await operate(s, payment.id, "capture", 10, 0)).status).toBe(200)
    expect(await gatewayRecord(s, transactionId)).toMatchObject({ captured_amount: 1000, final_capture: false })

    // Medusa's own dashboard keeps Refund disabled here (not fully captured); Medusa's route refunds it.
    const refund = await operate(s, payment.id, "refund", 4, 0)
    expect(refund.status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([400])

    expect((await operate(s, payment.id, "capture", 15.5, 1000)).status).toBe(200)
    expect(await gatewayRecord(s, transactionId)).toMatchObject({ captured_amount: 2550, refunded_amount: 400, final_capture: true })
    expect((await approvedOperations(s.sandbox, transactionId, "CAPTURE")).map((o) => o.amount)).toEqual([1000, 1550])

    const after = await adminPayment(s, payment.id)
    expect(after.captured_at).toBeTruthy()
    expect(after.data.captures.map((c: any) => [c.amount_minor, c.final_capture ?? false])).toEqual([[1000, false], [1550, true]])
    const view = (await admin(s, "get", `/admin/pgs/orders/${orderId}/gateway`)).data.payments[0]
    expect(view.medusa).toMatchObject({ captured_amount: "25.50", refunded_amount: "4.00" })
    expect(view.operations.map((o: any) => [o.kind, o.amount, o.final_capture])).toEqual([["capture", "10.00", false], ["refund", "4.00", false], ["capture", "15.50", true]])
  })

  it("lists on Needs attention, in words, the part of a canceled order's authorization never captured, which the gateway cannot void after a capture", async () => {
    const { orderId, transactionId } = await paidOrder(s) // 25.50 EUR authorized
    const payment = await paymentOfOrder(s, orderId)
    expect((await operate(s, payment.id, "capture", 10, 0)).status).toBe(200)
    // Medusa's cancel refunds the 10.00 captured and voids nothing (its payment has a capture).
    expect((await admin(s, "post", `/admin/orders/${orderId}/cancel`, {})).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([1000])
    const openFor = async () => ((await admin(s, "get", "/admin/pgs/attention?show=open&limit=100")).data.items as any[]).filter((i) => i.transaction_id === transactionId)
    const [held] = await waitFor(async () => ((await openFor()).length ? openFor() : null), { what: "the held part, listed" })
    expect(held).toMatchObject({
      kind: "held_after_cancel",
      title: "Still held on the card",
      needs_person: true,
      order_id: orderId,
      amount: "15.50",
      currency_code: "eur",
      actions: ["resolve"],
      sentence: expect.stringMatching(
        /^Order #\d+ was canceled while 15\.50 EUR of its card authorization was never captured \(10\.00 EUR was\)\. The gateway releases an authorization \(a void\) only before any capture, so this part cannot be released: it stays held on the customer's card until their bank lets the authorization lapse\. Nothing more is taken/,
      ),
    })
    // The spec's VOID is "before capture": nothing was asked of the gateway that it would refuse, and nothing is taken.
    expect(await approvedOperations(s.sandbox, transactionId, "VOID")).toHaveLength(0)
    expect(await approvedOperations(s.sandbox, transactionId, "CAPTURE")).toHaveLength(1)
    expect(await openFor()).toHaveLength(1)
  })

  it("lists nothing held for a canceled order whose authorization was captured in full", async () => {
    const { orderId, transactionId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    expect((await operate(s, payment.id, "capture", 25.5, 0)).status).toBe(200)
    expect((await admin(s, "post", `/admin/orders/${orderId}/cancel`, {})).status).toBe(200)
    // Listed after the cancel's event: the refund of all 25.50 recorded is what that run settles first.
    await waitFor(async () => ((await approvedOperations(s.sandbox, transactionId, "REFUND")).length ? true : null), { what: "the cancel's refund" })
    await listHeldAfterCancel(s.container(), orderId)
    expect(((await admin(s, "get", "/admin/pgs/attention?limit=100")).data.items as any[]).filter((i) => i.transaction_id === transactionId)).toEqual([])
  })

  it("makes one gateway capture of a double click: the second request finds the payment moved and is refused", async () => {
    const { orderId, transactionId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    const headers = await s.adminHeaders()
    const both = await Promise.all([operate(s, payment.id, "capture", 10, 0, headers), operate(s, payment.id, "capture", 10, 0, headers)])
    expect(both.map((r) => r.status).sort()).toEqual([200, 409])
    expect(both.find((r) => r.status === 409)!.data).toMatchObject({
      code: "pgs_capture_moved",
      expected: 0,
      actual: 1000,
      message: "The payment changed while you were looking at it: 10.00 EUR is captured now, you saw 0.00 EUR. Nothing was sent to the gateway; check the amounts and try again.",
    })
    expect((await approvedOperations(s.sandbox, transactionId, "CAPTURE")).map((o) => o.amount)).toEqual([1000])
  })

  it("makes one gateway capture when two admins capture the rest at once, and one refund when both refund", async () => {
    const { orderId, transactionId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    const [ann, bob] = [await adminToken(s.container()), await adminToken(s.container())].map((t) => ({ authorization: `Bearer ${t}` }))
    const captures = await Promise.all([operate(s, payment.id, "capture", 25.5, 0, ann), operate(s, payment.id, "capture", 25.5, 0, bob)])
    expect(captures.map((r) => r.status).sort()).toEqual([200, 409])
    const refunds = await Promise.all([operate(s, payment.id, "refund", 5, 0, ann), operate(s, payment.id, "refund", 5, 0, bob)])
    expect(refunds.map((r) => r.status).sort()).toEqual([200, 409])
    expect((await approvedOperations(s.sandbox, transactionId, "CAPTURE")).length).toBe(1)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((o) => o.amount)).toEqual([500])
  })

  it("runs Medusa's own capture button (no header) one at a time too: two full captures at once make one capture", async () => {
    const { orderId, transactionId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    // Medusa answers a capture of a payment it finds fully captured with 200 and changes nothing.
    const both = await Promise.all([operate(s, payment.id, "capture", 25.5), operate(s, payment.id, "capture", 25.5)])
    expect(both.map((r) => r.status)).toEqual([200, 200])
    expect((await adminPayment(s, payment.id)).captures).toHaveLength(1)
    expect((await approvedOperations(s.sandbox, transactionId, "CAPTURE")).length).toBe(1)
  })

  it("answers 400 naming the header when the expected amount is not a whole number of minor units", async () => {
    const { orderId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    const res = await admin(s, "post", `/admin/payments/${payment.id}/capture`, { amount: 1 }, { ...(await s.adminHeaders()), "x-pgs-expect-captured": "1.5" })
    expect(res.status).toBe(400)
    expect(res.data.errors).toEqual([{ field: "x-pgs-expect-captured", message: "must be a whole number of minor units" }])
  })

  it("says who made each capture and refund as Medusa recorded it: the admin user, an API key, the gateway's dashboard", async () => {
    const { orderId, session, transactionId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    const ada = { authorization: `Bearer ${await adminToken(s.container(), { email: "ada@shop.example", first_name: "Ada", last_name: "Byron" })}` }
    const key = await secretKey(s, "Warehouse robot")

    expect((await operate(s, payment.id, "capture", 10, 0, ada)).status).toBe(200)
    expect((await operate(s, payment.id, "refund", 2, 0, key.headers)).status).toBe(200)
    const external = await manageAtGateway(s, session, transactionId, "CAPTURE", 300)
    await processedEvent(s, external)
    const ops = (await adminPayment(s, payment.id)).data
    await processedEvent(s, ops.captures[0].transaction_id)
    await processedEvent(s, ops.refunds[0].transaction_id)

    const view = (await admin(s, "get", `/admin/pgs/orders/${orderId}/gateway`)).data.payments[0]
    expect(view.operations.map((o: any) => [o.kind, o.amount, o.by.kind, o.by.label])).toEqual([
      ["capture", "10.00", "user", "Ada Byron (ada@shop.example)"],
      ["refund", "2.00", "api_key", "API key “Warehouse robot”"],
      ["capture", "3.00", "gateway_dashboard", "the gateway's dashboard"],
    ])
    const byOf = (id: string) => view.events.find((e: any) => e.transaction_id === id)?.by
    expect(byOf(ops.captures[0].transaction_id)).toMatchObject({ kind: "user", label: "Ada Byron (ada@shop.example)" })
    expect(byOf(ops.refunds[0].transaction_id)).toMatchObject({ kind: "api_key", id: key.id })
    expect(byOf(external)).toMatchObject({ kind: "gateway_dashboard" })
    expect(byOf(transactionId)).toBeNull()
  })
})
