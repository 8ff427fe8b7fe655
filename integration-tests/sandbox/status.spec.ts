import { statusResponse } from "../../src/gateway/schemas"
import { startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"
import { approved, manage, otherMerchant } from "./management-helpers"

describe("GET /api/transactions/{id}/status", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  it("status of an unknown id is found false with transaction null (HTTP 200)", async () => {
    const res = await h.api("GET", "/api/transactions/trx_does_not_exist/status")
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ found: false, transaction: null })
  })

  it("status of an authorized transaction is found with the Transaction object", async () => {
    const tx = await approved(h, "AUTHORIZE", 2_500)
    const res = await h.api("GET", `/api/transactions/${tx.id}/status`)
    expect(res.status).toBe(200)
    const body = statusResponse.parse(res.body)
    expect(body.found).toBe(true)
    expect(body.transaction).toMatchObject({
      id: tx.id,
      reference: tx.reference,
      terminal_id: h.terminalId,
      transaction_type: "AUTHORIZE",
      status: "APPROVED",
      approved: true,
      pending: false,
      amount: 2_500,
      currency: "EUR",
      processing_code: "0000",
    })
  })

  it("status of a refused transaction shows INVALID with its 2013-2017 processing code", async () => {
    await h.control("POST", "/_sandbox/terminals/SBX-APM-001", { accepting: false })
    let id: string
    try {
      const res = await h.api("POST", "/api/transactions/authorize", {
        reference: uniqueReference("st"),
        terminal_id: "SBX-APM-001",
        description: "status of a refused transaction",
        currency: "EUR",
        amount: 1_000,
        transaction_type: "PURCHASE",
        payment_method: { type: "wallet-one-redirect", data: {} },
        return_url: "https://shop.example/return",
      })
      id = res.body.result.id
    } finally {
      await h.control("POST", "/_sandbox/terminals/SBX-APM-001", { accepting: true })
    }
    const res = await h.api("GET", `/api/transactions/${id}/status`)
    expect(res.body).toMatchObject({ found: true, transaction: { id, status: "INVALID", approved: false, processing_code: "2015" } })
  })

  it("status works for management children", async () => {
    const parent = await approved(h, "AUTHORIZE", 3_000)
    const capture = await manage(h, parent, "CAPTURE", 1_000)
    const res = await h.api("GET", `/api/transactions/${capture.body.id}/status`)
    expect(res.status).toBe(200)
    expect(statusResponse.parse(res.body).transaction).toMatchObject({
      id: capture.body.id,
      transaction_type: "CAPTURE",
      status: "APPROVED",
      reference: parent.reference,
      amount: 1_000,
    })
  })

  it("status of another merchant's transaction is found false", async () => {
    const tx = await approved(h, "PURCHASE", 1_200)
    const other = await otherMerchant(h)
    const res = await other.api("GET", `/api/transactions/${tx.id}/status`)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ found: false, transaction: null })
  })

  it("forbids a call without User-Agent with 403 and an empty body", async () => {
    const res = await h.raw("GET", "/api/transactions/trx_x/status", {
      headers: { authorization: `Bearer ${await h.bearer()}`, "user-agent": undefined },
    })
    expect(res.status).toBe(403)
    expect(res.text).toBe("")
  })

  it("answers 401 {error} without a bearer token", async () => {
    const res = await h.raw("GET", "/api/transactions/trx_x/status")
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "Unauthorized" })
  })
})
