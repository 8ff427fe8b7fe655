/**
 * The client-key API behind the embedded card frame, over plain HTTP (no browser needed): key and session checks,
 * card and instalment validation, and a session that can be paid once.
 */
import { BROWSER_INFO, startHarness, type SandboxHarness } from "../support/sandbox"
import { createSession } from "./support"

describe("embedded fields client-key API", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(async () => {
    await h?.close()
  })

  const nextYear = new Date().getFullYear() + 1
  const card = (number: string, extra: Record<string, unknown> = {}) => ({
    type: "card",
    card: { number, cvv: "123", expiration_month: 12, expiration_year: nextYear },
    browser_info: BROWSER_INFO,
    ...extra,
  })
  /** key null: no x-client-key header at all. */
  const pay = (sessionId: string, body: unknown, key: string | null = h.config.client_key) =>
    h.raw("POST", `/embedded/api/sessions/${sessionId}/pay`, { json: body, headers: { "x-client-key": key ?? undefined } })

  it("serves the script, the frame page and its assets", async () => {
    const script = await h.raw("GET", "/embedded-fields.js")
    expect(script.status).toBe(200)
    expect(script.headers["content-type"]).toContain("javascript")
    expect(script.text).toContain("window.PaymentComponent")
    expect((await h.raw("GET", "/embedded/frame?parent=http%3A%2F%2Flocalhost%3A1&cid=x")).text).toContain("/embedded/frame.js")
    expect((await h.raw("GET", "/embedded/frame.css")).headers["content-type"]).toContain("text/css")
  })

  it("refuses a missing or unknown client key (401) and an unknown session (404)", async () => {
    const session = await createSession(h)
    expect((await pay(session.id, card(h.testCard("frictionless_approved")), null)).status).toBe(401)
    expect((await pay(session.id, card(h.testCard("frictionless_approved")), "sbx_ck_nope")).status).toBe(401)
    expect((await pay("ses_unknown", card(h.testCard("frictionless_approved")))).status).toBe(404)
  })

  it("describes the session to the frame without merchant secrets", async () => {
    const session = await createSession(h, { terminal_id: "SBX-INSTAL-01" })
    const res = await h.raw("GET", `/embedded/api/sessions/${session.id}`, { headers: { "x-client-key": h.config.client_key } })
    expect(res.body).toEqual({
      id: session.id,
      amount: 2599,
      currency: "EUR",
      transaction_type: "PURCHASE",
      paid: false,
      instalments: { enabled: true, max: 6 },
      fingerprint_wait_ms: 0,
    })
  })

  it("validates card fields in the gateway's 422 shape", async () => {
    const session = await createSession(h)
    const bad = await pay(session.id, { type: "card", card: { number: "12ab", cvv: "1", expiration_month: 13, expiration_year: nextYear }, browser_info: BROWSER_INFO })
    expect(bad.status).toBe(422)
    expect(bad.body.errors.map((e: { property: string }) => e.property).sort()).toEqual(["card.cvv", "card.expiration_month", "card.number"])
    const expired = await pay(session.id, { ...card(h.testCard("frictionless_approved")), card: { number: h.testCard("frictionless_approved"), cvv: "123", expiration_month: 1, expiration_year: 2020 } })
    expect(expired.status).toBe(422)
    expect(expired.body.errors[0].property).toBe("card.expiration_year")
  })

  it("accepts instalments only on an instalment terminal and for an eligible card", async () => {
    const plain = await createSession(h)
    const onPlain = await pay(plain.id, card(h.testCard("frictionless_approved"), { number_of_instalments: 2 }))
    expect(onPlain.status).toBe(422)
    expect(onPlain.body.errors[0].property).toBe("number_of_instalments")
    const instal = await createSession(h, { terminal_id: "SBX-INSTAL-01" })
    const amex = await pay(instal.id, card("378282246310005", { number_of_instalments: 2 }))
    expect(amex.status).toBe(422)
    expect((await pay(instal.id, card(h.testCard("frictionless_approved"), { number_of_instalments: 7 }))).status).toBe(422)
    const ok = await pay(instal.id, card(h.testCard("frictionless_approved"), { number_of_instalments: 2 }))
    expect(ok.body.result).toMatchObject({ status: "APPROVED" })
    const record = (await h.control("GET", `/_sandbox/transactions/${ok.body.result.id}`)).body.record
    expect(record).toMatchObject({ number_of_instalments: 2, integration_type: "EMBEDDED_FIELDS", session_id: instal.id })
  })

  it("lets a declined session be retried but refuses to pay an approved one again (409)", async () => {
    const session = await createSession(h)
    const declined = await pay(session.id, card(h.testCard("frictionless_insufficient_funds")))
    expect(declined.body.result).toMatchObject({ status: "DECLINED", approved: false })
    const approved = await pay(session.id, card(h.testCard("frictionless_approved")))
    expect(approved.body.result).toMatchObject({ status: "APPROVED", approved: true })
    const again = await pay(session.id, card(h.testCard("frictionless_approved")))
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error: "SESSION_ALREADY_PAID", transaction_id: approved.body.result.id })
  })

  it("reads only transactions of the session", async () => {
    const a = await createSession(h)
    const b = await createSession(h)
    const paid = await pay(a.id, card(h.testCard("frictionless_approved")))
    const headers = { "x-client-key": h.config.client_key }
    expect((await h.raw("GET", `/embedded/api/sessions/${a.id}/transactions/${paid.body.result.id}`, { headers })).body.transaction.status).toBe("APPROVED")
    expect((await h.raw("GET", `/embedded/api/sessions/${b.id}/transactions/${paid.body.result.id}`, { headers })).status).toBe(404)
  })

  it("uses a sandbox return page for redirect steps, which forwards to the session's return_url outside a frame", async () => {
    const session = await createSession(h)
    const res = await pay(session.id, card(h.testCard("redirect_interactive")))
    expect(res.body.redirect.url).toBe(`${h.url}/simulator/simplified/three-ds/${res.body.redirect.transaction_id}`)
    const record = (await h.control("GET", `/_sandbox/transactions/${res.body.redirect.transaction_id}`)).body.record
    expect(record.return_url).toBe(`${h.url}/embedded/return?session_id=${session.id}`)
    const page = await h.raw("GET", `/embedded/return?session_id=${session.id}`)
    expect(page.text).toContain("https://shop.example/return")
    expect(page.text).toContain("PGS_EMBEDDED_RETURN")
  })
})
