import { createPublicKey } from "node:crypto"
import { TEST_CARD_SCENARIOS } from "../../sandbox"
import { startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"

describe("sandbox configuration and controls", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  it("publishes its configuration: URLs, realm, credentials, terminals, keys and test cards", async () => {
    const { body } = await h.control("GET", "/_sandbox/config")
    expect(body).toMatchObject({ base_url: h.url, auth_url: `${h.url}/auth`, realm: "uat", client_id: expect.any(String) })
    expect(body.client_secret).toEqual(expect.any(String))
    expect(body.client_key).toEqual(expect.any(String))
    expect(createPublicKey(body.merchant_public_key).asymmetricKeyType).toBe("rsa")
    expect(createPublicKey(body.webhook_public_key).asymmetricKeyType).toBe("rsa")
    for (const t of body.terminals) {
      expect(t.terminal_id.length).toBeGreaterThanOrEqual(5)
      expect(t.terminal_id.length).toBeLessThanOrEqual(20)
      expect(Array.isArray(t.features)).toBe(true)
    }
  })

  it("lists one test card per brand (VISA, MASTERCARD) for each simulator scenario", async () => {
    const { body } = await h.control("GET", "/_sandbox/config")
    for (const scenario of TEST_CARD_SCENARIOS)
      for (const brand of ["VISA", "MASTERCARD"])
        expect(body.test_cards.filter((c: any) => c.scenario === scenario && c.brand === brand)).toHaveLength(1)
  })

  it("generates new keys at each start unless fixed ones are given", async () => {
    const other = await startHarness({ keys: undefined }) // not the run's shared keys (support/sandbox.ts: runKeys)
    const fixed = await startHarness({ keys: { merchant: h.sandbox.context.keys.merchant.privatePem } })
    try {
      expect(other.config.merchant_public_key).not.toBe(h.config.merchant_public_key)
      expect(fixed.config.merchant_public_key).toBe(h.config.merchant_public_key)
    } finally {
      await other.close()
      await fixed.close()
    }
  })

  it("forgets every transaction and ledger row on reset", async () => {
    await h.control("POST", "/_sandbox/terminals/SBX-APM-001", { active: false })
    const res = await h.api("POST", "/api/transactions/authorize", {
      reference: uniqueReference(),
      terminal_id: "SBX-APM-001",
      description: "reset me",
      currency: "EUR",
      amount: 100,
      transaction_type: "PURCHASE",
      payment_method: { type: "wallet-one-redirect", data: {} },
      return_url: "https://shop.example/return",
    })
    expect(res.body.result).toMatchObject({ status: "INVALID", processing_code: "2014" })
    expect((await h.control("GET", "/_sandbox/ledger")).body.entries.length).toBeGreaterThan(0)
    await h.control("POST", "/_sandbox/reset")
    expect((await h.control("GET", "/_sandbox/ledger")).body.entries).toEqual([])
    expect((await h.control("GET", "/_sandbox/transactions")).body.transactions).toEqual([])
    expect((await h.control("GET", "/_sandbox/config")).body.terminals.every((t: any) => t.active)).toBe(true)
  })

  it("refuses transactions of an inactive merchant with processing code 2017", async () => {
    await h.control("POST", "/_sandbox/merchant", { active: false })
    try {
      const res = await h.api("POST", "/api/transactions/authorize", {
        reference: uniqueReference(),
        terminal_id: "SBX-APM-001",
        description: "inactive merchant",
        currency: "EUR",
        amount: 100,
        transaction_type: "PURCHASE",
        payment_method: { type: "wallet-one-redirect", data: {} },
        return_url: "https://shop.example/return",
      })
      expect(res.body.result).toMatchObject({ status: "INVALID", processing_code: "2017", approved: false })
    } finally {
      await h.control("POST", "/_sandbox/merchant", { active: true })
    }
  })

  it("refuses transactions on an unknown terminal with processing code 2013", async () => {
    const res = await h.api("POST", "/api/transactions/authorize", {
      reference: uniqueReference(),
      terminal_id: "NO-SUCH-TERM",
      description: "unknown terminal",
      currency: "EUR",
      amount: 100,
      transaction_type: "PURCHASE",
      payment_method: { type: "wallet-one-redirect", data: {} },
      return_url: "https://shop.example/return",
    })
    expect(res.body.result).toMatchObject({ status: "INVALID", processing_code: "2013", response_message: "Terminal Not Found" })
  })

  it("refuses to force a new outcome on a transaction that is already final", async () => {
    const res = await h.api("POST", "/api/transactions/authorize", {
      reference: uniqueReference(),
      terminal_id: "NO-SUCH-TERM",
      description: "final",
      currency: "EUR",
      amount: 100,
      transaction_type: "PURCHASE",
      payment_method: { type: "wallet-one-redirect", data: {} },
      return_url: "https://shop.example/return",
    })
    const forced = await h.control("POST", `/_sandbox/transactions/${res.body.result.id}/outcome`, { status: "APPROVED" })
    expect(forced.status).toBe(409)
  })

  it("answers 404 for an unknown path and 405 for a wrong method", async () => {
    expect((await h.raw("GET", "/nope")).status).toBe(404)
    expect((await h.raw("GET", "/api/transactions/authorize")).status).toBe(405)
  })
})
