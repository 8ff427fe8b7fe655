import { transaction } from "../../src/gateway/schemas"
import { startHarness, type SandboxHarness } from "../support/sandbox"
import { approved, expectInvalid, manage, original, recordOf, refusedOriginal, statusOf } from "./management-helpers"

describe("POST /api/transactions/manage: CAPTURE", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  it("captures part of an authorized payment, then the rest", async () => {
    const parent = await approved(h, "AUTHORIZE", 10_000)
    const first = await manage(h, parent, "CAPTURE", 4_000)
    expect(first.status).toBe(200)
    expect(transaction.parse(first.body)).toMatchObject({
      transaction_type: "CAPTURE",
      status: "APPROVED",
      approved: true,
      pending: false,
      processing_code: "0000",
      reference: parent.reference,
      terminal_id: parent.terminal_id,
      amount: 4_000,
      currency: "EUR",
    })
    expect(first.body.id).not.toBe(parent.id)
    const rest = await manage(h, parent, "CAPTURE", 6_000)
    expect(rest.body).toMatchObject({ transaction_type: "CAPTURE", status: "APPROVED", amount: 6_000 })
    expect(await recordOf(h, parent.id)).toMatchObject({ status: "APPROVED", captured_amount: 10_000, refunded_amount: 0 })
  })

  it("creates the capture as a child of the original carrying the request's metadata", async () => {
    const parent = await approved(h, "AUTHORIZE", 5_000)
    const res = await manage(h, parent, "CAPTURE", 5_000, { metadata: { order_id: "order_01", attempt: "1" } })
    expect(await recordOf(h, res.body.id)).toMatchObject({
      parent_id: parent.id,
      transaction_type: "CAPTURE",
      metadata: { order_id: "order_01", attempt: "1" },
    })
  })

  it("refuses a capture larger than what remains authorized (422 on amount: remaining, given)", async () => {
    const parent = await approved(h, "AUTHORIZE", 10_000)
    expect((await manage(h, parent, "CAPTURE", 7_000)).body.status).toBe("APPROVED")
    expectInvalid(await manage(h, parent, "CAPTURE", 4_000), "amount", ["amount", "3000", "4000"])
    expect(await recordOf(h, parent.id)).toMatchObject({ captured_amount: 7_000 })
  })

  it("refuses a capture larger than the original amount (422 on amount)", async () => {
    const parent = await approved(h, "AUTHORIZE", 10_000)
    expectInvalid(await manage(h, parent, "CAPTURE", 10_001), "amount", ["amount", "10000", "10001"])
  })

  it("refuses a capture in another currency (422 on currency: expected, given)", async () => {
    const parent = await approved(h, "AUTHORIZE", 10_000)
    expectInvalid(await manage(h, parent, "CAPTURE", 1_000, { currency: "USD" }), "currency", ["currency", "EUR", "USD"])
  })

  it("closes further captures after a capture with options.final_capture", async () => {
    const parent = await approved(h, "AUTHORIZE", 10_000)
    const last = await manage(h, parent, "CAPTURE", 3_000, { options: { final_capture: true } })
    expect(last.body.status).toBe("APPROVED")
    const more = await manage(h, parent, "CAPTURE", 1_000)
    expect(more.status).toBe(200)
    expect(more.body).toMatchObject({ transaction_type: "CAPTURE", status: "DECLINED", approved: false, processing_code: "1000" })
    expect(more.body.response_message).toMatch(/final capture/)
    expect(await recordOf(h, parent.id)).toMatchObject({ captured_amount: 3_000, final_capture: true })
  })

  it("declines a capture when the authorization is already fully captured", async () => {
    const parent = await approved(h, "AUTHORIZE", 2_000)
    await manage(h, parent, "CAPTURE", 2_000)
    const again = await manage(h, parent, "CAPTURE", 2_000)
    expect(again.body).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    expect(again.body.response_message).toMatch(/fully captured/)
    expect(await recordOf(h, parent.id)).toMatchObject({ captured_amount: 2_000 })
  })

  it("declines a CAPTURE of a PURCHASE", async () => {
    const parent = await approved(h, "PURCHASE", 3_000)
    const res = await manage(h, parent, "CAPTURE", 3_000)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ transaction_type: "CAPTURE", status: "DECLINED", processing_code: "1000" })
    expect(res.body.response_message).toMatch(/only to an AUTHORIZE/)
  })

  it("declines a CAPTURE of a voided authorization", async () => {
    const parent = await approved(h, "AUTHORIZE", 3_000)
    expect((await manage(h, parent, "VOID", 3_000)).body.status).toBe("APPROVED")
    const res = await manage(h, parent, "CAPTURE", 3_000)
    expect(res.body).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    expect(res.body.response_message).toMatch(/CANCELED/)
    expect((await statusOf(h, parent.id)).status).toBe("CANCELED")
  })

  it("declines a CAPTURE of a declined authorization", async () => {
    const parent = await original(h, { type: "AUTHORIZE", scenario: "frictionless_insufficient_funds" })
    expect(parent.status).toBe("DECLINED")
    const res = await manage(h, parent, "CAPTURE", parent.amount)
    expect(res.body).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    expect(res.body.response_message).toMatch(/DECLINED/)
  })

  it("declines a CAPTURE of an INVALID (terminal-refused) authorization", async () => {
    const parent = await refusedOriginal(h, "AUTHORIZE")
    const res = await manage(h, parent, "CAPTURE", parent.amount)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ transaction_type: "CAPTURE", status: "DECLINED", processing_code: "1000" })
    expect(res.body.response_message).toMatch(/INVALID/)
  })
})
