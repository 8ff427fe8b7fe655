import { startHarness, type SandboxHarness } from "../support/sandbox"
import { approved, expectInvalid, manage, original, recordOf, refusedOriginal } from "./management-helpers"

describe("POST /api/transactions/manage: REFUND", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  it("refunds a purchase twice up to its amount", async () => {
    const parent = await approved(h, "PURCHASE", 10_000)
    const first = await manage(h, parent, "REFUND", 6_000)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ transaction_type: "REFUND", status: "APPROVED", approved: true, processing_code: "0000", amount: 6_000 })
    const second = await manage(h, parent, "REFUND", 4_000)
    expect(second.body).toMatchObject({ transaction_type: "REFUND", status: "APPROVED", amount: 4_000 })
    expect(await recordOf(h, parent.id)).toMatchObject({ status: "APPROVED", refunded_amount: 10_000 })
  })

  it("declines a refund of a purchase that is already fully refunded", async () => {
    const parent = await approved(h, "PURCHASE", 1_500)
    await manage(h, parent, "REFUND", 1_500)
    const again = await manage(h, parent, "REFUND", 1)
    expect(again.body).toMatchObject({ transaction_type: "REFUND", status: "DECLINED", processing_code: "1000" })
    expect(again.body.response_message).toMatch(/fully refunded/)
  })

  it("refuses a refund larger than what remains refundable (422 on amount: remaining, given)", async () => {
    const parent = await approved(h, "PURCHASE", 10_000)
    await manage(h, parent, "REFUND", 6_000)
    expectInvalid(await manage(h, parent, "REFUND", 5_000), "amount", ["amount", "4000", "5000"])
    expect(await recordOf(h, parent.id)).toMatchObject({ refunded_amount: 6_000 })
  })

  it("refuses a refund larger than the original amount (422 on amount)", async () => {
    const parent = await approved(h, "PURCHASE", 10_000)
    expectInvalid(await manage(h, parent, "REFUND", 20_000), "amount", ["amount", "10000", "20000"])
  })

  it("refuses a refund in another currency (422 on currency)", async () => {
    const parent = await approved(h, "PURCHASE", 10_000, "EUR")
    expectInvalid(await manage(h, parent, "REFUND", 1_000, { currency: "BAM" }), "currency", ["currency", "EUR", "BAM"])
  })

  it("refunds only the captured part of an authorization", async () => {
    const parent = await approved(h, "AUTHORIZE", 10_000)
    await manage(h, parent, "CAPTURE", 3_000)
    expectInvalid(await manage(h, parent, "REFUND", 4_000), "amount", ["amount", "3000", "4000"])
    const refund = await manage(h, parent, "REFUND", 3_000)
    expect(refund.body).toMatchObject({ transaction_type: "REFUND", status: "APPROVED", amount: 3_000 })
    expect(await recordOf(h, parent.id)).toMatchObject({ captured_amount: 3_000, refunded_amount: 3_000 })
  })

  it("declines a refund of an authorization that was never captured", async () => {
    const parent = await approved(h, "AUTHORIZE", 10_000)
    const res = await manage(h, parent, "REFUND", 1_000)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ transaction_type: "REFUND", status: "DECLINED", processing_code: "1000" })
    expect(res.body.response_message).toMatch(/nothing was captured/)
  })

  it("declines a refund of a voided authorization", async () => {
    const parent = await approved(h, "AUTHORIZE", 10_000)
    await manage(h, parent, "VOID", 10_000)
    const res = await manage(h, parent, "REFUND", 1_000)
    expect(res.body).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    expect(res.body.response_message).toMatch(/CANCELED/)
  })

  it("declines a refund of a declined purchase", async () => {
    const parent = await original(h, { type: "PURCHASE", scenario: "frictionless_insufficient_funds" })
    expect(parent.status).toBe("DECLINED")
    const res = await manage(h, parent, "REFUND", parent.amount)
    expect(res.body).toMatchObject({ transaction_type: "REFUND", status: "DECLINED", processing_code: "1000" })
  })

  it("declines a refund of an INVALID (terminal-refused) purchase", async () => {
    const parent = await refusedOriginal(h, "PURCHASE")
    const res = await manage(h, parent, "REFUND", parent.amount)
    expect(res.body).toMatchObject({ transaction_type: "REFUND", status: "DECLINED", processing_code: "1000" })
    expect(res.body.response_message).toMatch(/INVALID/)
  })
})
