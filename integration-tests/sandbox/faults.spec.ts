import { Agent, request } from "undici"
import { startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"

const TOKEN_ROUTE = "POST /auth/realms/:realm/protocol/openid-connect/token"

describe("sandbox fault injection", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  beforeEach(async () => {
    await h.control("POST", "/_sandbox/reset")
  })
  afterAll(() => h.close())

  const tokenCall = () =>
    h.raw("POST", h.config.token_url, {
      form: { grant_type: "client_credentials", client_id: h.config.client_id, client_secret: h.config.client_secret },
    })

  it("adds latency to the targeted endpoint", async () => {
    await h.control("POST", "/_sandbox/faults", { target: TOKEN_ROUTE, kind: "latency", latency_ms: 300 })
    const started = Date.now()
    expect((await tokenCall()).status).toBe(200)
    expect(Date.now() - started).toBeGreaterThanOrEqual(290)
  })

  it("answers 5xx for as many calls as the count says, then recovers", async () => {
    await h.control("POST", "/_sandbox/faults", { target: TOKEN_ROUTE, kind: "status", status: 502, count: 2 })
    expect((await tokenCall()).status).toBe(502)
    expect((await tokenCall()).status).toBe(502)
    expect((await tokenCall()).status).toBe(200)
  })

  it("answers 429 with a Retry-After header", async () => {
    await h.control("POST", "/_sandbox/faults", { target: TOKEN_ROUTE, kind: "status", status: 429 })
    const res = await tokenCall()
    expect(res.status).toBe(429)
    expect(res.headers["retry-after"]).toBe("1")
  })

  it("drops the connection without an answer", async () => {
    await h.control("POST", "/_sandbox/faults", { target: TOKEN_ROUTE, kind: "drop" })
    await expect(tokenCall()).rejects.toThrow()
  })

  it("holds the request until the caller times out", async () => {
    await h.control("POST", "/_sandbox/faults", { target: TOKEN_ROUTE, kind: "timeout", latency_ms: 5_000 })
    const dispatcher = new Agent({ headersTimeout: 300 })
    await expect(
      request(h.config.token_url, {
        method: "POST",
        dispatcher,
        headers: { "user-agent": "t", "content-type": "application/x-www-form-urlencoded" },
        body: "grant_type=client_credentials",
      }),
    ).rejects.toThrow(/timeout/i)
    await dispatcher.close()
  })

  it("carries out the operation before losing the answer in phase after (the ledger shows it)", async () => {
    await h.control("POST", "/_sandbox/terminals/SBX-APM-001", { accepting: false })
    await h.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/authorize", kind: "drop", phase: "after" })
    const reference = uniqueReference("lost")
    await expect(
      h.api("POST", "/api/transactions/authorize", {
        reference,
        terminal_id: "SBX-APM-001",
        description: "lost answer",
        currency: "EUR",
        amount: 500,
        transaction_type: "PURCHASE",
        payment_method: { type: "wallet-one-redirect", data: {} },
        return_url: "https://shop.example/return",
      }),
    ).rejects.toThrow()
    const ledger = (await h.control("GET", "/_sandbox/ledger")).body.entries
    expect(ledger).toEqual([expect.objectContaining({ reference, operation: "POST /api/transactions/authorize", replay: false })])
  })

  it("does nothing in phase before (the ledger stays empty)", async () => {
    await h.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/authorize", kind: "status", status: 500 })
    const res = await h.api("POST", "/api/transactions/authorize", { reference: "x" })
    expect(res.status).toBe(500)
    expect((await h.control("GET", "/_sandbox/ledger")).body.entries).toEqual([])
  })

  it("targets every API call with *", async () => {
    await h.control("POST", "/_sandbox/faults", { target: "*", kind: "status", status: 503 })
    expect((await tokenCall()).status).toBe(503)
    expect((await tokenCall()).status).toBe(200)
  })

  it("lists rules with their remaining count and hits, and clears them", async () => {
    await h.control("POST", "/_sandbox/faults", { target: TOKEN_ROUTE, kind: "status", status: 500, count: 3 })
    await tokenCall()
    const [rule] = (await h.control("GET", "/_sandbox/faults")).body.faults
    expect(rule).toMatchObject({ remaining: 2, hits: 1 })
    await h.control("DELETE", "/_sandbox/faults")
    expect((await tokenCall()).status).toBe(200)
  })

  it("refuses a fault rule of an unknown kind with a 422 naming the field", async () => {
    const res = await h.control("POST", "/_sandbox/faults", { target: "*", kind: "explode" })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("kind")
  })
})
