import { startHarness, type SandboxHarness } from "../support/sandbox"
import { manage, recordOf, statusOf, type Original } from "./management-helpers"
import { paymentBody, payoutBody } from "./redirects-support"

/** "Management operations on alternative payments: REFUND depends on the provider and method; CAPTURE and VOID do not apply." */
describe("POST /api/transactions/manage on alternative payments and payouts", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  async function payment(status: "PENDING" | "APPROVED"): Promise<Original> {
    const res = await h.api("POST", "/api/transactions/payment", paymentBody(h, { amount: 2_500 }))
    const id = res.body.redirect.transaction_id
    if (status === "APPROVED") {
      const forced = await h.control("POST", `/_sandbox/transactions/${id}/outcome`, { status: "APPROVED" })
      expect(forced.status).toBe(200)
    }
    return statusOf(h, id)
  }

  it("refunds an approved alternative payment (the sandbox's provider allows it)", async () => {
    const parent = await payment("APPROVED")
    const res = await manage(h, parent, "REFUND", 1_000)
    expect(res.body).toMatchObject({ transaction_type: "REFUND", status: "APPROVED", amount: 1_000 })
    expect(await recordOf(h, parent.id)).toMatchObject({ refunded_amount: 1_000 })
  })

  it("declines a CAPTURE of an alternative payment (single-step flow)", async () => {
    const parent = await payment("APPROVED")
    const res = await manage(h, parent, "CAPTURE", 1_000)
    expect(res.body).toMatchObject({ transaction_type: "CAPTURE", status: "DECLINED", processing_code: "1000" })
  })

  it("declines a VOID of a pending alternative payment (single-step flow) and leaves it PENDING", async () => {
    const parent = await payment("PENDING")
    expect(parent.status).toBe("PENDING")
    const res = await manage(h, parent, "VOID", parent.amount)
    expect(res.body).toMatchObject({ transaction_type: "VOID", status: "DECLINED", processing_code: "1000" })
    expect(res.body.response_message).toMatch(/VOID does not apply to a PAYMENT/)
    expect((await statusOf(h, parent.id)).status).toBe("PENDING")
  })

  it("declines a REFUND of a payout", async () => {
    const res = await h.api("POST", "/api/transactions/payout", payoutBody(h))
    const parent: Original = res.body.result
    const refund = await manage(h, parent, "REFUND", parent.amount)
    expect(refund.body).toMatchObject({ transaction_type: "REFUND", status: "DECLINED", processing_code: "1000" })
    expect(refund.body.response_message).toMatch(/REFUND does not apply to a PAYOUT/)
  })
})
