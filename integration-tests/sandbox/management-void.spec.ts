import { startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"
import { approved, authorizeCard, expectInvalid, manage, original, refusedOriginal, statusOf } from "./management-helpers"

describe("POST /api/transactions/manage: VOID", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  it("voids an authorized payment before capture: the VOID is approved and the original becomes CANCELED", async () => {
    const parent = await approved(h, "AUTHORIZE", 10_000)
    const res = await manage(h, parent, "VOID", 10_000)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      transaction_type: "VOID",
      status: "APPROVED",
      approved: true,
      processing_code: "0000",
      reference: parent.reference,
      amount: 10_000,
    })
    expect(await statusOf(h, parent.id)).toMatchObject({ status: "CANCELED", approved: false, pending: false, processing_code: "1003" })
  })

  it("voids a pending transaction: the original becomes CANCELED", async () => {
    const reference = uniqueReference("void-pending")
    const started = await authorizeCard(h, { type: "AUTHORIZE", scenario: "redirect_interactive", extra: { reference } })
    expect(started.status).toBe(200)
    const id = started.body.redirect.transaction_id
    expect(["CREATED", "PENDING"]).toContain((await statusOf(h, id)).status)
    const res = await manage(h, { reference, terminal_id: h.terminalId, currency: "EUR" }, "VOID", 10_000)
    expect(res.body).toMatchObject({ transaction_type: "VOID", status: "APPROVED" })
    expect(await statusOf(h, id)).toMatchObject({ status: "CANCELED", approved: false })
  })

  it("declines a VOID of a PURCHASE", async () => {
    const parent = await approved(h, "PURCHASE", 5_000)
    const res = await manage(h, parent, "VOID", 5_000)
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ transaction_type: "VOID", status: "DECLINED", approved: false, processing_code: "1000" })
    expect(res.body.response_message).toMatch(/refund it instead/)
    expect((await statusOf(h, parent.id)).status).toBe("APPROVED")
  })

  it("declines a VOID after a capture", async () => {
    const parent = await approved(h, "AUTHORIZE", 5_000)
    await manage(h, parent, "CAPTURE", 1_000)
    const res = await manage(h, parent, "VOID", 5_000)
    expect(res.body).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    expect(res.body.response_message).toMatch(/after a capture/)
    expect((await statusOf(h, parent.id)).status).toBe("APPROVED")
  })

  it("declines a second VOID of a voided authorization", async () => {
    const parent = await approved(h, "AUTHORIZE", 5_000)
    await manage(h, parent, "VOID", 5_000)
    const again = await manage(h, parent, "VOID", 5_000)
    expect(again.body).toMatchObject({ transaction_type: "VOID", status: "DECLINED", processing_code: "1000" })
    expect((await statusOf(h, parent.id)).status).toBe("CANCELED")
  })

  it("declines a VOID of a declined authorization", async () => {
    const parent = await original(h, { type: "AUTHORIZE", scenario: "frictionless_insufficient_funds" })
    const res = await manage(h, parent, "VOID", parent.amount)
    expect(res.body).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    expect((await statusOf(h, parent.id)).status).toBe("DECLINED")
  })

  it("declines a VOID of an INVALID (terminal-refused) authorization", async () => {
    const parent = await refusedOriginal(h, "AUTHORIZE")
    const res = await manage(h, parent, "VOID", parent.amount)
    expect(res.body).toMatchObject({ transaction_type: "VOID", status: "DECLINED", processing_code: "1000" })
    expect((await statusOf(h, parent.id)).status).toBe("INVALID")
  })

  it("refuses a VOID larger than the original amount (422 on amount)", async () => {
    const parent = await approved(h, "AUTHORIZE", 5_000)
    expectInvalid(await manage(h, parent, "VOID", 5_001), "amount", ["amount", "5000", "5001"])
    expect((await statusOf(h, parent.id)).status).toBe("APPROVED")
  })

  it("refuses a VOID in another currency (422 on currency)", async () => {
    const parent = await approved(h, "AUTHORIZE", 5_000)
    expectInvalid(await manage(h, parent, "VOID", 5_000, { currency: "USD" }), "currency", ["currency", "EUR", "USD"])
  })
})
