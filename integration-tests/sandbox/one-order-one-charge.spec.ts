/**
 * A reference names one transaction and a session is paid once, whichever integration brought the payment:
 * the sandbox's side of "nothing is charged twice".
 */
import { BROWSER_INFO, startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"
import { authorizeCard, formById, record, submit } from "./cards-support"

describe("one order, one charge", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  const session = async (reference = uniqueReference("emb")) =>
    (
      await h.api("POST", "/api/sessions", {
        terminal_id: h.terminalId,
        reference,
        description: "embedded order",
        currency: "EUR",
        amount: 1000,
        transaction_type: "PURCHASE",
        return_url: "https://shop.example/return",
      })
    ).body
  const pay = (sessionId: string, scenario: string) =>
    h.raw("POST", `/embedded/api/sessions/${sessionId}/pay`, {
      json: {
        type: "card",
        card: { number: h.testCard(scenario), cvv: "123", expiration_month: 12, expiration_year: new Date().getFullYear() + 1 },
        browser_info: BROWSER_INFO,
      },
      headers: { "x-client-key": h.config.client_key },
    })

  it("takes at most 10 card attempts on one embedded session, then answers 429 (card testing is the gateway's to stop)", async () => {
    const s = await session()
    for (let i = 0; i < 10; i++) expect((await pay(s.id, "frictionless_insufficient_funds")).body.result.status).toBe("DECLINED")
    const refused = await pay(s.id, "frictionless_approved")
    expect(refused.status).toBe(429)
    expect(refused.body).toEqual({ error: "TOO_MANY_ATTEMPTS", message: "at most 10 payment attempts per session" })
  })

  it("declines an attempt that finishes after another attempt of the same session was approved", async () => {
    const s = await session()
    const slow = await pay(s.id, "redirect_interactive")
    const slowId = slow.body.redirect.transaction_id
    expect((await pay(s.id, "frictionless_approved")).body.result.status).toBe("APPROVED")
    const page = await h.raw("GET", slow.body.redirect.url)
    await submit(h, formById(page.text, "approve"))
    expect(await record(h, slowId)).toMatchObject({ status: "DECLINED", processing_code: "1000" })
  })

  it("refuses to pay a session whose reference already names a Direct API transaction", async () => {
    const reference = uniqueReference("shared")
    const direct = await authorizeCard(h, { reference, amount: 1000, currency: "EUR" })
    expect(direct.body.result.status).toBe("APPROVED")
    const s = await session(reference)
    const res = await pay(s.id, "frictionless_approved")
    expect(res.status).toBe(409)
    expect(res.body.error).toBe("REFERENCE_IN_USE")
    // A repeat of the Direct API call still names its own transaction.
    const again = await authorizeCard(h, { reference, amount: 1000, currency: "EUR" })
    expect(again.body.result.id).toBe(direct.body.result.id)
  })

  it("does not replay a transaction of another kind for a reused reference", async () => {
    const reference = uniqueReference("kind")
    const payment = await h.api("POST", "/api/transactions/payment", {
      terminal_id: h.terminalId,
      reference,
      description: "bank payment",
      currency: "EUR",
      amount: 1000,
      method: "OPEN_BANKING",
      country: "DE",
      customer_ip: "203.0.113.7",
      return_url: "https://shop.example/return",
      error_url: "https://shop.example/error",
      cancel_url: "https://shop.example/cancel",
    })
    expect(payment.status).toBe(200)
    const card = await authorizeCard(h, { reference, amount: 1000, currency: "EUR" })
    expect(card.status).toBe(422)
    expect(card.body.errors[0].property).toBe("reference")
  })
})
