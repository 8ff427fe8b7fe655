import { sessionResponse } from "../../src/gateway/schemas"
import { startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"
import { expectInvalid, RETURN_URL } from "./management-helpers"

const sessionBody = (h: SandboxHarness, overrides: Record<string, unknown> = {}) => ({
  terminal_id: h.terminalId,
  reference: uniqueReference("ses"),
  description: "Order #1001",
  currency: "EUR",
  amount: 4_990,
  transaction_type: "AUTHORIZE",
  return_url: RETURN_URL,
  ...overrides,
})

describe("POST /api/sessions (Embedded Fields session)", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  it("creates a session: the same fields plus id and status CREATED", async () => {
    const body = sessionBody(h, {
      customer: { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", phone: "+38761123456", country: "BA" },
      country: "BA",
      originator_url: "https://shop.example/checkout#pay",
    })
    const res = await h.api("POST", "/api/sessions", body)
    expect(res.status).toBe(200)
    expect(sessionResponse.parse(res.body)).toEqual({ ...body, id: expect.any(String), status: "CREATED" })
    expect(res.body.id).toMatch(/\S/)
  })

  it("answers null for optional fields that were left out", async () => {
    const res = await h.api("POST", "/api/sessions", sessionBody(h, { transaction_type: "PURCHASE" }))
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ transaction_type: "PURCHASE", customer: null, country: null, originator_url: null })
  })

  it("returns the existing session for the same reference, amount and currency", async () => {
    const body = sessionBody(h)
    const first = await h.api("POST", "/api/sessions", body)
    const second = await h.api("POST", "/api/sessions", { ...body, description: "retried" })
    expect(second.status).toBe(200)
    expect(second.body).toEqual(first.body)
  })

  it("refuses a reused reference with a different amount (422 on reference)", async () => {
    const body = sessionBody(h)
    expect((await h.api("POST", "/api/sessions", body)).status).toBe(200)
    expectInvalid(await h.api("POST", "/api/sessions", { ...body, amount: body.amount + 1 }), "reference", ["reference", body.reference])
  })

  it("refuses a reused reference with a different currency (422 on reference)", async () => {
    const body = sessionBody(h)
    expect((await h.api("POST", "/api/sessions", body)).status).toBe(200)
    expectInvalid(await h.api("POST", "/api/sessions", { ...body, currency: "USD" }), "reference")
  })

  it("keeps references unique per terminal: the same reference on another terminal is another session", async () => {
    const body = sessionBody(h)
    const a = await h.api("POST", "/api/sessions", body)
    const b = await h.api("POST", "/api/sessions", { ...body, terminal_id: "SBX-CARDS-01", amount: 1 })
    expect(b.status).toBe(200)
    expect(b.body.id).not.toBe(a.body.id)
  })

  it("refuses options.number_of_instalments: it must be left out", async () => {
    const res = await h.api("POST", "/api/sessions", sessionBody(h, { options: { number_of_instalments: 3 } }))
    expectInvalid(res, "options.number_of_instalments")
  })

  it("refuses a reference longer than 40 characters, naming the maximum and the given size", async () => {
    const res = await h.api("POST", "/api/sessions", sessionBody(h, { reference: "r".repeat(41) }))
    expectInvalid(res, "reference", ["reference", "40", "41"])
  })

  it("refuses a transaction_type other than AUTHORIZE or PURCHASE", async () => {
    expectInvalid(await h.api("POST", "/api/sessions", sessionBody(h, { transaction_type: "OCT" })), "transaction_type")
  })

  it.each(["terminal_id", "reference", "description", "currency", "amount", "transaction_type", "return_url"])(
    "refuses a session without the required %s",
    async (field) => {
      const body: Record<string, unknown> = sessionBody(h)
      delete body[field]
      expectInvalid(await h.api("POST", "/api/sessions", body), field)
    },
  )

  it("refuses a decimal amount", async () => {
    const body = JSON.stringify(sessionBody(h)).replace('"amount":4990', '"amount":49.90')
    const res = await h.raw("POST", "/api/sessions", { body, headers: { authorization: `Bearer ${await h.bearer()}` } })
    expectInvalid(res, "amount")
  })

  it("refuses a country that is not 2 letters", async () => {
    expectInvalid(await h.api("POST", "/api/sessions", sessionBody(h, { country: "BIH" })), "country")
  })

  it("refuses a customer phone that is not E.164", async () => {
    expectInvalid(await h.api("POST", "/api/sessions", sessionBody(h, { customer: { phone: "061 123 456" } })), "customer.phone")
  })

  it("refuses an unknown terminal with 422 on terminal_id and processing code 2013 in params", async () => {
    const res = await h.api("POST", "/api/sessions", sessionBody(h, { terminal_id: "NO-SUCH-TERM" }))
    expectInvalid(res, "terminal_id", ["terminal_id", "NO-SUCH-TERM", "2013"])
  })

  it("refuses an inactive terminal with 422 on terminal_id and processing code 2014 in params", async () => {
    await h.control("POST", "/_sandbox/terminals/SBX-CARDS-01", { active: false })
    try {
      const res = await h.api("POST", "/api/sessions", sessionBody(h, { terminal_id: "SBX-CARDS-01" }))
      expectInvalid(res, "terminal_id", ["terminal_id", "SBX-CARDS-01", "2014"])
    } finally {
      await h.control("POST", "/_sandbox/terminals/SBX-CARDS-01", { active: true })
    }
  })

  it("refuses a terminal without the transaction type's feature (2015)", async () => {
    const res = await h.api("POST", "/api/sessions", sessionBody(h, { terminal_id: "SBX-APM-001", transaction_type: "AUTHORIZE" }))
    expectInvalid(res, "terminal_id", ["terminal_id", "SBX-APM-001", "2015"])
  })

  it("forbids a call without User-Agent with 403 and an empty body", async () => {
    const res = await h.raw("POST", "/api/sessions", {
      json: sessionBody(h),
      headers: { authorization: `Bearer ${await h.bearer()}`, "user-agent": undefined },
    })
    expect(res.status).toBe(403)
    expect(res.text).toBe("")
  })

  it("answers 401 {error} without a bearer token", async () => {
    const res = await h.raw("POST", "/api/sessions", { json: sessionBody(h) })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "Unauthorized" })
  })
})
