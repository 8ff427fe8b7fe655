import { startHarnessWithReceiver, uniqueReference, type SandboxHarness } from "../support/sandbox"
import type { WebhookReceiver } from "../support/webhook-receiver"
import { expectInvalid, findForm, submit, transactionState, waitForEvents } from "./redirects-support"

const HPP = "/api/hosted-payment-page"
const PAGE_URLS = {
  success_url: "https://shop.example/hpp/success",
  cancel_url: "https://shop.example/hpp/cancel",
  error_url: "https://shop.example/hpp/error",
}
const YEAR = String(new Date().getFullYear() + 2)

describe("Hosted Payment Page", () => {
  let h: SandboxHarness
  let receiver: WebhookReceiver
  let close: () => Promise<void>
  beforeAll(async () => ({ h, receiver, close } = await startHarnessWithReceiver()))
  afterAll(() => close())

  const pageBody = (overrides: Record<string, unknown> = {}) => ({
    terminal_id: "SBX-CARDS-01",
    reference: uniqueReference("hpp"),
    description: "Order #4001",
    currency: "EUR",
    amount: 7_500,
    ...PAGE_URLS,
    ...overrides,
  })

  async function createPage(overrides: Record<string, unknown> = {}) {
    const res = await h.api("POST", HPP, pageBody(overrides))
    expect(res.status).toBe(200)
    const page = await h.raw("GET", res.body.url)
    expect(page.status).toBe(200)
    return { session: res.body, html: page.text }
  }

  async function transactionOfPage(reference: string) {
    const page = (await h.api("POST", HPP, pageBody({ reference }))).body
    expect(page.transaction_id).toEqual(expect.any(String))
    return transactionState(h, page.transaction_id)
  }

  const card = (number: string, extra: Record<string, string> = {}) => ({ card_number: number, expiry_month: "12", expiry_year: YEAR, cvv: "123", ...extra })

  describe("POST /api/hosted-payment-page", () => {
    it("creates a page session {id, url {base}/hpp/{id}, status CREATED} echoing the request", async () => {
      const body = pageBody({ language: "sv-SE", options: { cvv_less: true } })
      const res = await h.api("POST", HPP, body)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ ...body, id: expect.any(String), status: "CREATED", transaction_id: null })
      expect(res.body.url).toBe(`${h.url}/hpp/${res.body.id}`)
    })

    it("defaults language to en-US and transaction_type to PURCHASE", async () => {
      const res = await h.api("POST", HPP, pageBody())
      expect(res.body).toMatchObject({ language: "en-US", transaction_type: "PURCHASE" })
    })

    it.each(["success_url", "cancel_url", "error_url", "description"])("requires %s", async (field) => {
      const body: Record<string, unknown> = pageBody()
      delete body[field]
      expectInvalid(await h.api("POST", HPP, body), field)
    })

    it("refuses a description outside 1 to 100 characters", async () => {
      expectInvalid(await h.api("POST", HPP, pageBody({ description: "d".repeat(101) })), "description", ["description", "100", "101"])
      expectInvalid(await h.api("POST", HPP, pageBody({ description: "" })), "description", ["description", "1", "0"])
    })

    it("refuses a reference longer than 40 characters", async () => {
      expectInvalid(await h.api("POST", HPP, pageBody({ reference: "h".repeat(41) })), "reference", ["reference", "40", "41"])
    })

    it("refuses a language outside the four supported ones", async () => {
      expectInvalid(await h.api("POST", HPP, pageBody({ language: "de-DE" })), "language")
    })

    it("refuses options.number_of_instalments outside 1 to 6", async () => {
      expectInvalid(await h.api("POST", HPP, pageBody({ options: { number_of_instalments: 7 } })), "options.number_of_instalments")
    })

    it("returns the same page for the same reference, amount and currency; a different amount is a 422 on reference", async () => {
      const body = pageBody()
      const first = await h.api("POST", HPP, body)
      expect((await h.api("POST", HPP, body)).body.id).toBe(first.body.id)
      expectInvalid(await h.api("POST", HPP, { ...body, amount: 1 }), "reference")
    })

    it("refuses a terminal that does not take cards (422 on terminal_id)", async () => {
      expectInvalid(await h.api("POST", HPP, pageBody({ terminal_id: "SBX-APM-001" })), "terminal_id")
    })
  })

  describe("the page", () => {
    it.each([
      ["en-US", "Card number", "Pay"],
      ["bs-BA", "Broj kartice", "Plati"],
      ["ro-RO", "Numărul cardului", "Plătește"],
      ["sv-SE", "Kortnummer", "Betala"],
    ])("shows its labels in %s", async (language, cardLabel, payLabel) => {
      const { html } = await createPage({ language })
      expect(html).toContain(`lang="${language}"`)
      expect(html).toContain(cardLabel)
      expect(html).toContain(payLabel)
    })

    it("shows the amount, the card fields with CVV, and Cancel", async () => {
      const { html } = await createPage({ amount: 7_500 })
      expect(html).toContain("75.00 EUR")
      expect(Object.keys(findForm(html, "pay")!.fields)).toEqual(expect.arrayContaining(["card_number", "expiry_month", "expiry_year", "cvv"]))
      expect(findForm(html, "cancel")).not.toBeNull()
    })

    it("leaves out the CVV field with options.cvv_less, and pays without it", async () => {
      const { session, html } = await createPage({ options: { cvv_less: true } })
      expect(findForm(html, "pay")!.fields).not.toHaveProperty("cvv")
      const { cvv: _cvv, ...noCvv } = card(h.testCard("frictionless_approved"))
      const res = await submit(h, html, "pay", noCvv)
      expect(res.headers.location).toBe(PAGE_URLS.success_url)
      expect((await h.api("POST", HPP, pageBody({ reference: session.reference }))).body.status).toBe("COMPLETED")
    })

    it("offers no instalments on a terminal without them", async () => {
      const { html } = await createPage()
      expect(html).not.toContain('name="number_of_instalments"')
    })

    it("offers instalments 1 to 6 on a terminal with INSTALMENTS, and sends the choice as number_of_instalments", async () => {
      const { session, html } = await createPage({ terminal_id: "SBX-INSTAL-01" })
      expect(html).toContain('name="number_of_instalments"')
      for (const n of [1, 2, 3, 4, 5, 6]) expect(html).toContain(`<option value="${n}">`)
      const res = await submit(h, html, "pay", card(h.testCard("frictionless_approved"), { number_of_instalments: "4" }))
      expect(res.headers.location).toBe(PAGE_URLS.success_url)
      const page = (await h.api("POST", HPP, pageBody({ terminal_id: "SBX-INSTAL-01", reference: session.reference }))).body
      const record = (await h.control("GET", `/_sandbox/transactions/${page.transaction_id}`)).body.record
      expect(record.number_of_instalments).toBe(4)
    })

    it("offers instalments when options.number_of_instalments is set, with that number chosen", async () => {
      const { html } = await createPage({ options: { number_of_instalments: 3 } })
      expect(html).toContain('<option value="3" selected>')
    })

    it("re-renders the form with an error (422) for an invalid card number and creates no transaction", async () => {
      const { session, html } = await createPage()
      const res = await submit(h, html, "pay", card("4000000000001001"))
      expect(res.status).toBe(422)
      expect(res.text).toContain('data-error="invalid_card_number"')
      expect((await h.api("POST", HPP, pageBody({ reference: session.reference }))).body).toMatchObject({ status: "CREATED", transaction_id: null })
    })

    it("refuses an expiry in the past and a missing CVV", async () => {
      const { html } = await createPage()
      const res = await submit(h, html, "pay", card(h.testCard("frictionless_approved"), { expiry_year: "2001", cvv: "" }))
      expect(res.status).toBe(422)
      expect(res.text).toContain('data-error="invalid_expiry"')
      expect(res.text).toContain('data-error="invalid_cvv"')
    })
  })

  describe("paying on the page", () => {
    it("a frictionless card is approved (integration type HOSTED_PAYMENT_PAGE) and the page answers 303 to success_url", async () => {
      const { session, html } = await createPage()
      const res = await submit(h, html, "pay", card(h.testCard("frictionless_approved")))
      expect(res.status).toBe(303)
      expect(res.headers.location).toBe(PAGE_URLS.success_url)
      const tx = await transactionOfPage(session.reference)
      expect(tx).toMatchObject({ status: "APPROVED", reference: session.reference, amount: 7_500, transaction_type: "PURCHASE" })
      const record = (await h.control("GET", `/_sandbox/transactions/${tx.id}`)).body.record
      expect(record).toMatchObject({ integration_type: "HOSTED_PAYMENT_PAGE", session_id: session.id })
      expect(await waitForEvents(receiver, tx.id, ["approved"])).toEqual(["transaction-svc:transaction:purchase:approved"])
    })

    it("a declined card answers 303 to error_url", async () => {
      const { session, html } = await createPage()
      const res = await submit(h, html, "pay", card(h.testCard("frictionless_insufficient_funds")))
      expect(res.status).toBe(303)
      expect(res.headers.location).toBe(PAGE_URLS.error_url)
      expect((await transactionOfPage(session.reference)).status).toBe("DECLINED")
    })

    it("Cancel answers 303 to cancel_url and the page cannot be paid any more", async () => {
      const { session, html } = await createPage()
      const res = await submit(h, html, "cancel")
      expect(res.status).toBe(303)
      expect(res.headers.location).toBe(PAGE_URLS.cancel_url)
      expect((await h.api("POST", HPP, pageBody({ reference: session.reference }))).body.status).toBe("CANCELED")
      const late = await submit(h, html, "pay", card(h.testCard("frictionless_approved")))
      expect(late.headers.location).toBe(PAGE_URLS.cancel_url)
      expect((await h.raw("GET", session.url)).headers.location).toBe(PAGE_URLS.cancel_url)
    })

    it("a redirect_interactive card goes through the simulator page, then back to success_url", async () => {
      const { session, html } = await createPage()
      const toSimulator = await submit(h, html, "pay", card(h.testCard("redirect_interactive")))
      expect(toSimulator.status).toBe(303)
      expect(toSimulator.headers.location).toMatch(/\/simulator\/simplified\/three-ds\//)
      const simulator = await h.raw("GET", String(toSimulator.headers.location))
      expect(simulator.status).toBe(200)
      const back = await submit(h, simulator.text, "approve")
      expect(back.status).toBe(303)
      expect(back.headers.location).toBe(`${session.url}/return`)
      const done = await h.raw("GET", String(back.headers.location))
      expect(done.headers.location).toBe(PAGE_URLS.success_url)
      expect((await transactionOfPage(session.reference)).status).toBe("APPROVED")
    })

    it("a redirect_interactive card declined at the simulator ends at error_url", async () => {
      const { html } = await createPage()
      const toSimulator = await submit(h, html, "pay", card(h.testCard("redirect_interactive")))
      const simulator = await h.raw("GET", String(toSimulator.headers.location))
      const back = await submit(h, simulator.text, "decline")
      expect((await h.raw("GET", String(back.headers.location))).headers.location).toBe(PAGE_URLS.error_url)
    })

    it("a form_submit card: the page auto-submits the form to the simulator, which brings the shopper back to success_url", async () => {
      const { html } = await createPage()
      const autoSubmit = await submit(h, html, "pay", card(h.testCard("form_submit_authenticated")))
      expect(autoSubmit.status).toBe(200)
      expect(findForm(autoSubmit.text, "continue")!.fields).toEqual({ trans_status: "Y" })
      const back = await submit(h, autoSubmit.text, "continue")
      expect((await h.raw("GET", String(back.headers.location))).headers.location).toBe(PAGE_URLS.success_url)
    })

    it("coming back before 3-D Secure has finished shows the processing page instead of an outcome", async () => {
      const { session, html } = await createPage()
      await submit(h, html, "pay", card(h.testCard("redirect_interactive")))
      const early = await h.raw("GET", `${session.url}/return`)
      expect(early.status).toBe(200)
      expect(early.text).toContain("Your payment is being processed.")
    })

    it("options.skip_three_ds: a redirect_interactive card is authorized without the simulator page", async () => {
      const { session, html } = await createPage({ options: { skip_three_ds: true } })
      const res = await submit(h, html, "pay", card(h.testCard("redirect_interactive")))
      expect(res.headers.location).toBe(PAGE_URLS.success_url)
      expect((await transactionOfPage(session.reference)).status).toBe("APPROVED")
    })

    it("Cancel while the shopper is at 3-D Secure cancels the transaction and answers 303 to cancel_url", async () => {
      const { session, html } = await createPage()
      await submit(h, html, "pay", card(h.testCard("redirect_interactive")))
      const res = await submit(h, html, "cancel")
      expect(res.headers.location).toBe(PAGE_URLS.cancel_url)
      expect((await transactionOfPage(session.reference)).status).toBe("CANCELED")
    })

    it("opening a paid page again sends the shopper to the outcome URL", async () => {
      const { session, html } = await createPage()
      await submit(h, html, "pay", card(h.testCard("frictionless_approved")))
      const again = await h.raw("GET", session.url)
      expect(again.status).toBe(303)
      expect(again.headers.location).toBe(PAGE_URLS.success_url)
    })

    it("runs the full 3-D Secure flow itself (metadata simulated_flow): fingerprint, challenge at the ACS, then success_url", async () => {
      const { session, html } = await createPage({ metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE", response_code: "TRX_STATUS_APPROVED" } })
      const fingerprint = await submit(h, html, "pay", card("4111111111111111"))
      expect(fingerprint.status).toBe(200)
      // The hidden iframe: the ACS method page reports to the method notification URL.
      const method = await submit(h, fingerprint.text, "method")
      expect((await submit(h, method.text, "next")).status).toBe(200)
      const toAcs = await submit(h, fingerprint.text, "continue")
      expect(findForm(toAcs.text, "continue")!.fields).toHaveProperty("creq")
      const challenge = await submit(h, toAcs.text, "continue")
      const cres = await submit(h, challenge.text, "approve")
      const notification = await submit(h, cres.text, "next")
      const back = await submit(h, notification.text, "finalize")
      expect(back.status).toBe(303)
      expect(back.headers.location).toBe(`${session.url}/return`)
      expect((await h.raw("GET", String(back.headers.location))).headers.location).toBe(PAGE_URLS.success_url)
      const tx = await transactionOfPage(session.reference)
      expect(tx.status).toBe("APPROVED")
      expect((await h.control("GET", `/_sandbox/transactions/${tx.id}`)).body.record.integration_type).toBe("HOSTED_PAYMENT_PAGE")
    })

    it("a frictionless full 3-D Secure flow goes from the fingerprint straight to success_url", async () => {
      const { session, html } = await createPage({ metadata: { simulated_flow: "VERSIONING_FINGERPRINT_A_FRICTIONLESS", response_code: "TRX_STATUS_APPROVED" } })
      const fingerprint = await submit(h, html, "pay", card("4111111111111111"))
      const done = await submit(h, fingerprint.text, "continue")
      expect(done.status).toBe(303)
      expect(done.headers.location).toBe(PAGE_URLS.success_url)
      expect((await transactionOfPage(session.reference)).status).toBe("APPROVED")
    })

    it("answers 404 for an unknown page", async () => {
      expect((await h.raw("GET", "/hpp/hpp_unknown")).status).toBe(404)
    })
  })
})
