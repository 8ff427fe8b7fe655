import { BROWSER_INFO, startHarness, type SandboxHarness } from "../support/sandbox"

describe("sandbox request hygiene (403 with an empty body)", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  it("forbids an API call without a User-Agent, with an empty body", async () => {
    const res = await h.raw("POST", "/api/transactions/authorize", {
      json: {},
      headers: { "user-agent": undefined, authorization: `Bearer ${await h.bearer()}` },
    })
    expect(res.status).toBe(403)
    expect(res.text).toBe("")
  })

  it("forbids an API call whose Content-Type is not JSON", async () => {
    const res = await h.raw("POST", "/api/transactions/authorize", {
      body: "{}",
      headers: { "content-type": "text/plain", authorization: `Bearer ${await h.bearer()}` },
    })
    expect(res.status).toBe(403)
    expect(res.text).toBe("")
  })

  it("forbids a token call that is not form-encoded", async () => {
    const res = await h.raw("POST", h.config.token_url, {
      json: { grant_type: "client_credentials", client_id: h.config.client_id, client_secret: h.config.client_secret },
    })
    expect(res.status).toBe(403)
    expect(res.text).toBe("")
  })

  it("checks hygiene before the bearer token (403 wins over 401)", async () => {
    const res = await h.raw("POST", "/api/transactions/authorize", { json: {}, headers: { "user-agent": undefined } })
    expect(res.status).toBe(403)
  })

  it("checks the bearer token before validation (401 wins over 422)", async () => {
    const res = await h.raw("POST", "/api/transactions/authorize", { json: { amount: "x" } })
    expect(res.status).toBe(401)
  })

  it("answers a validation failure with 422 in the documented shape", async () => {
    const res = await h.api("POST", "/api/transactions/authorize", { reference: "" })
    expect(res.status).toBe(422)
    expect(res.body.status).toBe(422)
    expect(res.body.method).toBe("POST")
    expect(Array.isArray(res.body.errors)).toBe(true)
    for (const e of res.body.errors) {
      expect(typeof e.message).toBe("string")
      expect(typeof e.property).toBe("string")
      expect(Array.isArray(e.params)).toBe(true)
    }
    expect(res.body.errors.map((e: { property: string }) => e.property)).toEqual(
      expect.arrayContaining(["reference", "terminal_id", "amount", "currency", "payment_method"]),
    )
  })

  it("refuses a decimal amount written as 100.00 even though JSON reads it as 100", async () => {
    const raw = await h.raw("POST", "/api/transactions/authorize", {
      body: '{"reference":"r-1","terminal_id":"SBX-ALL-001","description":"d","currency":"EUR","amount":100.00,"transaction_type":"PURCHASE","payment_method":{"type":"wallet-one-redirect","data":{}},"return_url":"https://shop.example/ok"}',
      headers: { authorization: `Bearer ${await h.bearer()}` },
    })
    expect(raw.status).toBe(422)
    expect(raw.body.errors).toEqual([expect.objectContaining({ property: "amount" })])
  })

  it("refuses an amount sent as a string", async () => {
    const res = await h.api("POST", "/api/transactions/authorize", {
      reference: "r-2",
      terminal_id: "SBX-ALL-001",
      description: "d",
      currency: "EUR",
      amount: "100",
      transaction_type: "PURCHASE",
      payment_method: { type: "wallet-one-redirect", data: {} },
      return_url: "https://shop.example/ok",
    })
    expect(res.status).toBe(422)
    expect(res.body.errors.map((e: { property: string }) => e.property)).toContain("amount")
  })

  it("names nested fields with a dotted path", async () => {
    const res = await h.api("POST", "/api/transactions/authorize", {
      reference: "r-3",
      terminal_id: "SBX-ALL-001",
      description: "d",
      currency: "PLN",
      amount: 100,
      transaction_type: "PURCHASE",
      payment_method: { type: "provider-instant", data: { first_name: "A", last_name: "B" } },
      return_url: "https://shop.example/ok",
    })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([expect.objectContaining({ property: "payment_method.data.email" })])
  })

  it("gives a reference longer than 40 characters the params field name, maximum and given size", async () => {
    const res = await h.api("POST", "/api/transactions/authorize", {
      reference: "x".repeat(41),
      terminal_id: "SBX-ALL-001",
      description: "d",
      currency: "EUR",
      amount: 100,
      transaction_type: "PURCHASE",
      payment_method: { type: "wallet-one-redirect", data: {} },
      return_url: "https://shop.example/ok",
    })
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([{ property: "reference", message: expect.any(String), params: ["reference", "40", "41"] }])
  })

  it("answers 404, not 500, for a path with a malformed percent-escape", async () => {
    const res = await h.api("GET", "/api/transactions/%E0%A4%A/status")
    expect(res.status).toBe(404)
  })

  it("refuses simulator metadata that names an inherited property instead of a value", async () => {
    const res = await h.api("POST", "/api/transactions/authorize", {
      reference: "proto-1",
      terminal_id: "SBX-ALL-001",
      description: "d",
      currency: "EUR",
      amount: 100,
      transaction_type: "PURCHASE",
      payment_method: h.encryptedCard({ number: "4111111111111111" }),
      browser_info: BROWSER_INFO,
      return_url: "https://shop.example/ok",
      metadata: { response_code: "toString" },
    })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("metadata.response_code")
  })
})
