import { startHarnessWithReceiver, type SandboxHarness } from "../support/sandbox"
import type { WebhookReceiver } from "../support/webhook-receiver"
import { expectInvalid, forceOutcome, paymentBody, transactionState, waitForEvents, eventsFor } from "./redirects-support"

const PAYMENT = "/api/transactions/payment"

describe("POST /api/transactions/payment (alternative payments)", () => {
  let h: SandboxHarness
  let receiver: WebhookReceiver
  let close: () => Promise<void>
  beforeAll(async () => ({ h, receiver, close } = await startHarnessWithReceiver()))
  afterAll(() => close())

  describe("a new payment", () => {
    it("answers a redirect {transaction_id, session_id, url} to the provider page with result, action and form_submit null", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h))
      expect(res.status).toBe(200)
      expect(res.body).toEqual({
        result: null,
        action: null,
        form_submit: null,
        redirect: { transaction_id: expect.any(String), session_id: expect.any(String), url: `${h.url}/provider/${res.body.redirect.transaction_id}` },
      })
    })

    it("is PENDING with pending true, approved false, processing code 1002 and transaction type PAYMENT", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h))
      const tx = await transactionState(h, res.body.redirect.transaction_id)
      expect(tx).toMatchObject({ status: "PENDING", pending: true, approved: false, processing_code: "1002", transaction_type: "PAYMENT" })
      expect(tx.redirect_url).toBe(res.body.redirect.url)
    })

    it.each([
      ["OPEN_BANKING", "payment_open_banking"],
      ["UPI", "payment_upi"],
      ["WALLETS", "payment_wallets"],
      ["BANK_TRANSFER", "payment_bank_transfer"],
      ["QR_CODE", "payment_qr_code"],
    ])("shows payment_method.type for %s as %s and method echoes the requested method", async (method, type) => {
      const res = await h.api("POST", PAYMENT, paymentBody(h, { method }))
      const tx = await transactionState(h, res.body.redirect.transaction_id)
      expect(tx.payment_method).toMatchObject({ type, method })
    })

    it.each(["BANK_SCHEME_REDIRECT", "OPENBANKING_REDIRECT"])("accepts the bank redirect method %s (our assumed method value) and answers a redirect", async (method) => {
      const res = await h.api("POST", PAYMENT, paymentBody(h, { method }))
      expect(res.status).toBe(200)
      expect(res.body.redirect.url).toContain("/provider/")
    })

    it("sends transaction-svc:transaction:pending when the payment is created", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h))
      const id = res.body.redirect.transaction_id
      expect(await waitForEvents(receiver, id, ["pending"])).toEqual(["transaction-svc:transaction:pending"])
    })

    it("keeps the customer, metadata and customer_ip it was given", async () => {
      const customer = { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" }
      const res = await h.api("POST", PAYMENT, paymentBody(h, { customer, metadata: { cart: "c1" }, customer_ip: "2001:db8::1" }))
      const record = (await h.control("GET", `/_sandbox/transactions/${res.body.redirect.transaction_id}`)).body.record
      expect(record).toMatchObject({ customer, metadata: { cart: "c1" }, customer_ip: "2001:db8::1" })
    })
  })

  describe("request validation (422)", () => {
    it("refuses a reference longer than 80 characters, naming reference with params [field, max, given size]", async () => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { reference: "r".repeat(81) })), "reference", ["reference", "80", "81"])
    })

    it("accepts a reference of exactly 80 characters", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h, { reference: `${Date.now()}`.padEnd(80, "x") }))
      expect(res.status).toBe(200)
    })

    it("refuses an empty reference", async () => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { reference: "" })), "reference", ["reference", "1", "0"])
    })

    it("refuses a description longer than 100 characters", async () => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { description: "d".repeat(101) })), "description", ["description", "100", "101"])
    })

    it("refuses an empty description", async () => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { description: "" })), "description", ["description", "1", "0"])
    })

    it.each(["EURO", "eur", "E1R"])("refuses currency %p (3 letters, ISO 4217)", async (currency) => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { currency })), "currency")
    })

    it.each(["DEU", "de", "D"])("refuses country %p (2 letters, ISO 3166-1 alpha-2)", async (country) => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { country })), "country")
    })

    it.each(["terminal_id", "reference", "description", "currency", "amount", "method", "country", "customer_ip", "return_url", "error_url", "cancel_url"])(
      "requires %s",
      async (field) => {
        const body: Record<string, unknown> = paymentBody(h)
        delete body[field]
        const res = await h.api("POST", PAYMENT, body)
        expectInvalid(res, field)
        expect(res.body.errors.find((e: { property: string }) => e.property === field).params[0]).toBe(field)
      },
    )

    it.each(["300.1.1.1", "localhost", "2001:db8::zz"])("refuses customer_ip %p (must be IPv4 or IPv6)", async (customer_ip) => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { customer_ip })), "customer_ip")
    })

    it.each(["198.51.100.7", "2001:db8::1"])("accepts customer_ip %p", async (customer_ip) => {
      expect((await h.api("POST", PAYMENT, paymentBody(h, { customer_ip }))).status).toBe(200)
    })

    it.each(["return_url", "error_url", "cancel_url"])("refuses %s that is not an http(s) URL", async (field) => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { [field]: "not a url" })), field)
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { [field]: "ftp://shop.example/x" })), field)
    })

    it("refuses a method outside the enum", async () => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { method: "CASH" })), "method")
    })

    it("refuses a decimal amount at validation", async () => {
      const body = JSON.stringify(paymentBody(h)).replace('"amount":2500', '"amount":25.00')
      const res = await h.raw("POST", PAYMENT, { body, headers: { authorization: `Bearer ${await h.bearer()}` } })
      expectInvalid(res, "amount")
    })

    it("refuses an originator_url that is not http or https, and accepts one with a # fragment or empty", async () => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { originator_url: "javascript:alert(1)" })), "originator_url")
      expect((await h.api("POST", PAYMENT, paymentBody(h, { originator_url: "https://shop.example/checkout#pay" }))).status).toBe(200)
      expect((await h.api("POST", PAYMENT, paymentBody(h, { originator_url: "" }))).status).toBe(200)
    })

    it("uses the terminal website when originator_url is omitted", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h))
      const record = (await h.control("GET", `/_sandbox/transactions/${res.body.redirect.transaction_id}`)).body.record
      expect(record.originator_url).toBe(h.url)
    })

    it("answers 403 with an empty body without a User-Agent (request hygiene applies to the payment endpoint)", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h), { "user-agent": undefined })
      expect(res.status).toBe(403)
      expect(res.text).toBe("")
    })

    it("answers unauthorized with {error} without a bearer token", async () => {
      const res = await h.raw("POST", PAYMENT, { json: paymentBody(h) })
      expect(res.status).toBe(401)
      expect(res.body).toEqual({ error: expect.any(String) })
    })
  })

  describe("terminal checks", () => {
    it("answers an INVALID transaction with processing code 2015 when the terminal lacks TRX_TYPE_PAYMENT", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h, { terminal_id: "SBX-CARDS-01" }))
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ action: null, redirect: null, form_submit: null })
      expect(res.body.result).toMatchObject({ status: "INVALID", processing_code: "2015", transaction_type: "PAYMENT", approved: false, pending: false })
    })

    it("answers INVALID 2015 when the terminal has TRX_TYPE_PAYMENT but not the method", async () => {
      const terminal = h.config.terminals.find((t) => t.terminal_id === "SBX-APM-001")!
      await h.control("POST", "/_sandbox/terminals/SBX-APM-001", { methods: terminal.methods.filter((m) => m !== "UPI") })
      try {
        const res = await h.api("POST", PAYMENT, paymentBody(h, { terminal_id: "SBX-APM-001", method: "UPI" }))
        expect(res.body.result).toMatchObject({ status: "INVALID", processing_code: "2015" })
      } finally {
        await h.control("POST", "/_sandbox/terminals/SBX-APM-001", { methods: terminal.methods })
      }
    })

    it("answers INVALID with processing code 2013 for an unknown terminal", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h, { terminal_id: "SBX-NONE-404" }))
      expect(res.body.result).toMatchObject({ status: "INVALID", processing_code: "2013" })
    })
  })

  describe("idempotency by reference", () => {
    it("returns the existing pending payment (the same redirect) for the same reference, amount and currency", async () => {
      const body = paymentBody(h)
      const first = await h.api("POST", PAYMENT, body)
      const second = await h.api("POST", PAYMENT, body)
      expect(second.status).toBe(200)
      expect(second.body).toEqual(first.body)
    })

    it("returns the existing transaction in its current state once it is final", async () => {
      const body = paymentBody(h)
      const id = (await h.api("POST", PAYMENT, body)).body.redirect.transaction_id
      await forceOutcome(h, id, "APPROVED")
      const again = await h.api("POST", PAYMENT, body)
      expect(again.body).toMatchObject({ redirect: null, result: { id, status: "APPROVED", approved: true, processing_code: "0000", redirect_url: null } })
    })

    it("does not create a second transaction on a replay (the ledger marks it a replay)", async () => {
      const body = paymentBody(h)
      const id = (await h.api("POST", PAYMENT, body)).body.redirect.transaction_id
      await h.api("POST", PAYMENT, body)
      const entries = (await h.control("GET", "/_sandbox/ledger")).body.entries.filter((e: { reference: string }) => e.reference === body.reference)
      expect(entries.map((e: { transaction_id: string; replay: boolean }) => [e.transaction_id, e.replay])).toEqual([
        [id, false],
        [id, true],
      ])
    })

    it("refuses the same reference with a different amount (422 on reference)", async () => {
      const body = paymentBody(h)
      await h.api("POST", PAYMENT, body)
      expectInvalid(await h.api("POST", PAYMENT, { ...body, amount: body.amount + 1 }), "reference", ["reference", body.reference])
    })

    it("refuses the same reference with a different currency (422 on reference)", async () => {
      const body = paymentBody(h)
      await h.api("POST", PAYMENT, body)
      expectInvalid(await h.api("POST", PAYMENT, { ...body, currency: "USD" }), "reference")
    })
  })

  describe("sandbox switch metadata.simulate_result", () => {
    it("APPROVED: the provider finishes at once, result APPROVED (0000), no redirect, only the authorized webhook", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h, { metadata: { simulate_result: "APPROVED" } }))
      expect(res.body).toMatchObject({ redirect: null, action: null, form_submit: null })
      expect(res.body.result).toMatchObject({ status: "APPROVED", approved: true, pending: false, processing_code: "0000", redirect_url: null })
      const id = res.body.result.id
      await waitForEvents(receiver, id, ["authorized"])
      expect(eventsFor(receiver, id)).toEqual(["transaction-svc:transaction:authorized"])
    })

    it("DECLINED: result DECLINED with processing code 1000", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h, { metadata: { simulate_result: "DECLINED" } }))
      expect(res.body.result).toMatchObject({ status: "DECLINED", approved: false, processing_code: "1000" })
    })

    it("PENDING: result PENDING without a redirect, resolved later by the control", async () => {
      const res = await h.api("POST", PAYMENT, paymentBody(h, { metadata: { simulate_result: "PENDING" } }))
      expect(res.body).toMatchObject({ redirect: null, result: { status: "PENDING", pending: true, processing_code: "1002" } })
      expect((await forceOutcome(h, res.body.result.id, "APPROVED")).status).toBe("APPROVED")
    })

    it("refuses an unknown simulate_result value (422 on metadata.simulate_result)", async () => {
      expectInvalid(await h.api("POST", PAYMENT, paymentBody(h, { metadata: { simulate_result: "MAYBE" } })), "metadata.simulate_result")
    })
  })
})
