import { startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"
import { approved, expectInvalid, manage, otherMerchant, recordOf, refusedOriginal } from "./management-helpers"

/** Finding the original, request validation, terminals and the absence of idempotency. */
describe("POST /api/transactions/manage: the request", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  it("refuses an unknown reference with 422 on reference", async () => {
    const reference = uniqueReference("nope")
    const res = await manage(h, { reference, terminal_id: h.terminalId, currency: "EUR" }, "CAPTURE", 100)
    expectInvalid(res, "reference", ["reference", reference])
  })

  it("finds the original by terminal and reference: the same reference on another terminal is unknown", async () => {
    const parent = await approved(h, "AUTHORIZE", 1_000)
    expectInvalid(await manage(h, { ...parent, terminal_id: "SBX-CARDS-01" }, "CAPTURE", 100), "reference")
  })

  it("runs the operation against parent_transaction_id when it names the original of the reference", async () => {
    const parent = await approved(h, "AUTHORIZE", 1_000)
    const res = await manage(h, parent, "CAPTURE", 400, { parent_transaction_id: parent.id })
    expect(res.body).toMatchObject({ transaction_type: "CAPTURE", status: "APPROVED" })
    expect(await recordOf(h, res.body.id)).toMatchObject({ parent_id: parent.id })
  })

  it("refuses a parent_transaction_id of another reference (422 on parent_transaction_id)", async () => {
    const a = await approved(h, "AUTHORIZE", 1_000)
    const b = await approved(h, "AUTHORIZE", 1_000)
    expectInvalid(await manage(h, a, "CAPTURE", 100, { parent_transaction_id: b.id }), "parent_transaction_id", ["parent_transaction_id", b.id])
  })

  it("refuses a parent_transaction_id that names a management child", async () => {
    const parent = await approved(h, "AUTHORIZE", 1_000)
    const capture = await manage(h, parent, "CAPTURE", 100)
    expectInvalid(await manage(h, parent, "REFUND", 100, { parent_transaction_id: capture.body.id }), "parent_transaction_id")
  })

  it("treats another merchant's reference as unknown", async () => {
    const parent = await approved(h, "AUTHORIZE", 1_000)
    const other = await otherMerchant(h)
    const res = await other.api("POST", "/api/transactions/manage", {
      terminal_id: parent.terminal_id,
      reference: parent.reference,
      transaction_type: "VOID",
      amount: 1_000,
      currency: "EUR",
    })
    expectInvalid(res, "reference")
    expect((await recordOf(h, parent.id)).status).toBe("APPROVED")
  })

  it("treats each manage call as a new operation: the same capture sent twice captures twice", async () => {
    const parent = await approved(h, "AUTHORIZE", 1_000)
    const first = await manage(h, parent, "CAPTURE", 300)
    const second = await manage(h, parent, "CAPTURE", 300)
    expect(first.body.status).toBe("APPROVED")
    expect(second.body.status).toBe("APPROVED")
    expect(second.body.id).not.toBe(first.body.id)
    expect(await recordOf(h, parent.id)).toMatchObject({ captured_amount: 600 })
  })

  it("records an operation on an inactive terminal as INVALID with processing code 2014", async () => {
    const parent = await approved(h, "AUTHORIZE", 1_000)
    await h.control("POST", `/_sandbox/terminals/${parent.terminal_id}`, { active: false })
    try {
      const res = await manage(h, parent, "CAPTURE", 1_000)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ transaction_type: "CAPTURE", status: "INVALID", approved: false, processing_code: "2014" })
    } finally {
      await h.control("POST", `/_sandbox/terminals/${parent.terminal_id}`, { active: true })
    }
    expect(await recordOf(h, parent.id)).toMatchObject({ captured_amount: 0 })
  })

  it("refuses a decimal amount (422 on amount)", async () => {
    const parent = await refusedOriginal(h)
    const body = `{"terminal_id":"${parent.terminal_id}","reference":"${parent.reference}","transaction_type":"VOID","amount":100.00,"currency":"EUR"}`
    const res = await h.raw("POST", "/api/transactions/manage", { body, headers: { authorization: `Bearer ${await h.bearer()}` } })
    expectInvalid(res, "amount")
  })

  it("refuses a transaction_type other than CAPTURE, REFUND or VOID", async () => {
    const parent = await refusedOriginal(h)
    expectInvalid(await manage(h, parent, "PURCHASE", 100), "transaction_type")
  })

  it("refuses metadata values that are not strings", async () => {
    const parent = await refusedOriginal(h)
    expectInvalid(await manage(h, parent, "VOID", 100, { metadata: { attempt: 1 } }), "metadata.attempt")
  })

  it.each(["terminal_id", "reference", "transaction_type", "amount", "currency"])("refuses a request without the required %s", async (field) => {
    const body: Record<string, unknown> = { terminal_id: h.terminalId, reference: "some-ref", transaction_type: "VOID", amount: 100, currency: "EUR" }
    delete body[field]
    const res = await h.api("POST", "/api/transactions/manage", body)
    expectInvalid(res, field)
    expect(res.body.errors[0].params[0]).toBe(field)
  })

  it("never moves more than remains, even for concurrent calls: one of two full captures is refused", async () => {
    const parent = await approved(h, "AUTHORIZE", 1_000)
    const results = await Promise.all([manage(h, parent, "CAPTURE", 1_000), manage(h, parent, "CAPTURE", 1_000)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 200])
    expect(results.map((r) => r.body.status).sort()).toEqual(["APPROVED", "DECLINED"])
    expect(await recordOf(h, parent.id)).toMatchObject({ captured_amount: 1_000 })
  })

  it("forbids a call without User-Agent with 403 and an empty body", async () => {
    const res = await h.raw("POST", "/api/transactions/manage", {
      json: { terminal_id: h.terminalId, reference: "r", transaction_type: "VOID", amount: 1, currency: "EUR" },
      headers: { authorization: `Bearer ${await h.bearer()}`, "user-agent": undefined },
    })
    expect(res.status).toBe(403)
    expect(res.text).toBe("")
  })

  it("answers 401 {error} without a bearer token", async () => {
    const res = await h.raw("POST", "/api/transactions/manage", {
      json: { terminal_id: h.terminalId, reference: "r", transaction_type: "VOID", amount: 1, currency: "EUR" },
    })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "Unauthorized" })
  })
})
