import { VOUCHER_CODES } from "../../src/gateway/schemas"
import { startHarnessWithReceiver, type SandboxHarness } from "../support/sandbox"
import type { WebhookReceiver } from "../support/webhook-receiver"
import {
  expectInvalid,
  forceOutcome,
  providerInstantBody,
  transactionState,
  voucherBody,
  waitForEvents,
  walletRedirectBody,
} from "./redirects-support"

const AUTHORIZE = "/api/transactions/authorize"

describe("redirect methods through POST /api/transactions/authorize", () => {
  let h: SandboxHarness
  let receiver: WebhookReceiver
  let close: () => Promise<void>
  beforeAll(async () => ({ h, receiver, close } = await startHarnessWithReceiver()))
  afterAll(() => close())

  describe("provider-instant (PLN instant payments)", () => {
    it("creates a PENDING purchase and answers a redirect {transaction_id, session_id, url} to the provider checkout", async () => {
      const res = await h.api("POST", AUTHORIZE, providerInstantBody(h))
      expect(res.status).toBe(200)
      const id = res.body.redirect.transaction_id
      expect(res.body).toEqual({
        result: null,
        action: null,
        form_submit: null,
        redirect: { transaction_id: id, session_id: expect.any(String), url: `${h.url}/provider/${id}` },
      })
      expect(await transactionState(h, id)).toMatchObject({
        status: "PENDING",
        pending: true,
        processing_code: "1002",
        transaction_type: "PURCHASE",
        currency: "PLN",
        payment_method: { type: "provider-instant", masked: "j***@example.pl" },
        customer: { first_name: "Jan", last_name: "Kowalski", email: "jan@example.pl", country: "PL" },
      })
    })

    it("sends transaction-svc:transaction:purchase:pending on creation", async () => {
      const id = (await h.api("POST", AUTHORIZE, providerInstantBody(h))).body.redirect.transaction_id
      expect(await waitForEvents(receiver, id, ["pending"])).toEqual(["transaction-svc:transaction:purchase:pending"])
    })

    it("accepts only PLN: another currency is a 422 on currency", async () => {
      expectInvalid(await h.api("POST", AUTHORIZE, providerInstantBody(h, {}, { currency: "EUR" })), "currency")
    })

    it("accepts only PURCHASE: AUTHORIZE is a 422 on transaction_type", async () => {
      expectInvalid(await h.api("POST", AUTHORIZE, providerInstantBody(h, {}, { transaction_type: "AUTHORIZE" })), "transaction_type")
    })

    it.each(["email", "first_name", "last_name"])("requires payment_method.data.%s", async (field) => {
      const body = providerInstantBody(h)
      delete (body.payment_method.data as Record<string, unknown>)[field]
      expectInvalid(await h.api("POST", AUTHORIZE, body), `payment_method.data.${field}`)
    })

    it("refuses payment_method.data.email that is not an email address", async () => {
      expectInvalid(await h.api("POST", AUTHORIZE, providerInstantBody(h, { email: "not-an-email" })), "payment_method.data.email")
    })

    it("accepts an E.164 phone that passes the possible-number check", async () => {
      const res = await h.api("POST", AUTHORIZE, providerInstantBody(h, { phone: "+48123456789" }))
      expect(res.status).toBe(200)
      expect((await transactionState(h, res.body.redirect.transaction_id)).customer.phone).toBe("+48123456789")
    })

    it.each(["0048123456789", "+48 123 456 789", "48123456789"])("refuses phone %p that is not E.164 (422 on payment_method.data.phone)", async (phone) => {
      expectInvalid(await h.api("POST", AUTHORIZE, providerInstantBody(h, { phone })), "payment_method.data.phone")
    })

    it.each(["+4812", "+481234567890123"])("refuses E.164 phone %p that fails the possible-number check", async (phone) => {
      expectInvalid(await h.api("POST", AUTHORIZE, providerInstantBody(h, { phone })), "payment_method.data.phone")
    })

    it.each(["12345", "1234567", "12a456"])("refuses scheme_code %p (exactly 6 digits)", async (scheme_code) => {
      expectInvalid(await h.api("POST", AUTHORIZE, providerInstantBody(h, { scheme_code })), "payment_method.data.scheme_code")
    })

    it("accepts a pre-collected 6-digit scheme_code", async () => {
      expect((await h.api("POST", AUTHORIZE, providerInstantBody(h, { scheme_code: "123456" }))).status).toBe(200)
    })

    it("refuses date_of_birth that is not YYYY-MM-DD", async () => {
      expectInvalid(await h.api("POST", AUTHORIZE, providerInstantBody(h, { date_of_birth: "01/02/1990" })), "payment_method.data.date_of_birth")
    })

    it("refuses a reference longer than 40 characters with params [reference, 40, 41]", async () => {
      expectInvalid(await h.api("POST", AUTHORIZE, providerInstantBody(h, {}, { reference: "r".repeat(41) })), "reference", ["reference", "40", "41"])
    })

    it("requires return_url", async () => {
      const body: Record<string, unknown> = providerInstantBody(h)
      delete body.return_url
      expectInvalid(await h.api("POST", AUTHORIZE, body), "return_url")
    })

    it("replays the same reference with the redirect while PENDING and with the result once finished", async () => {
      const body = providerInstantBody(h)
      const first = await h.api("POST", AUTHORIZE, body)
      expect((await h.api("POST", AUTHORIZE, body)).body).toEqual(first.body)
      await forceOutcome(h, first.body.redirect.transaction_id, "DECLINED")
      const after = await h.api("POST", AUTHORIZE, body)
      expect(after.body).toMatchObject({
        redirect: null,
        result: { id: first.body.redirect.transaction_id, status: "DECLINED", redirect_url: null, payment_method: { masked: "j***@example.pl" } },
      })
    })

    it("finishes at once with metadata simulate_result APPROVED", async () => {
      const res = await h.api("POST", AUTHORIZE, providerInstantBody(h, {}, { metadata: { simulate_result: "APPROVED" } }))
      expect(res.body).toMatchObject({ redirect: null, result: { status: "APPROVED", approved: true } })
    })
  })

  describe("voucher-redirect-{code}", () => {
    it.each([...VOUCHER_CODES])("accepts voucher-redirect-%s and answers a redirect to the provider page", async (code) => {
      const res = await h.api("POST", AUTHORIZE, voucherBody(h, `voucher-redirect-${code}`))
      expect(res.status).toBe(200)
      expect(res.body.redirect.url).toBe(`${h.url}/provider/${res.body.redirect.transaction_id}`)
    })

    it("knows exactly 27 codes", () => {
      expect(new Set(VOUCHER_CODES).size).toBe(27)
    })

    it.each(["voucher-ali", "redirect-voucher-ali", "ali", "VOUCHER-REDIRECT-ALI", "voucher-redirect-ALI", "voucher_redirect_ali", "voucher-redirect-xyz", "voucher-redirect-"])(
      "refuses %p: lowercase with the voucher-redirect- prefix and a known code only (422 on payment_method.type)",
      async (type) => {
        expectInvalid(await h.api("POST", AUTHORIZE, voucherBody(h, type)), "payment_method.type")
      },
    )

    it("accepts only PURCHASE (422 on transaction_type)", async () => {
      expectInvalid(await h.api("POST", AUTHORIZE, voucherBody(h, "voucher-redirect-idl", { transaction_type: "AUTHORIZE" })), "transaction_type")
    })

    it.each(["email", "first_name", "last_name"])("requires payment_method.data.%s", async (field) => {
      const body = voucherBody(h, "voucher-redirect-psc")
      delete (body.payment_method.data as Record<string, unknown>)[field]
      expectInvalid(await h.api("POST", AUTHORIZE, body), `payment_method.data.${field}`)
    })

    it.each(["customer", "browser_info", "metadata", "return_url"])("requires %s (the schema's required list)", async (field) => {
      const body: Record<string, unknown> = voucherBody(h, "voucher-redirect-psc")
      delete body[field]
      expectInvalid(await h.api("POST", AUTHORIZE, body), field)
    })

    it("refuses a reference longer than 40 characters", async () => {
      expectInvalid(await h.api("POST", AUTHORIZE, voucherBody(h, "voucher-redirect-ali", { reference: "v".repeat(41) })), "reference", ["reference", "40", "41"])
    })

    it("answers INVALID 2015 on a terminal without the voucher methods", async () => {
      const res = await h.api("POST", AUTHORIZE, voucherBody(h, "voucher-redirect-ali", { terminal_id: "SBX-CARDS-01" }))
      expect(res.body.result).toMatchObject({ status: "INVALID", processing_code: "2015" })
    })
  })

  describe("wallet-one-redirect and wallet-two-redirect", () => {
    it.each(["wallet-one-redirect", "wallet-two-redirect"])("%s answers a redirect; the purchase is PENDING", async (type) => {
      const res = await h.api("POST", AUTHORIZE, walletRedirectBody(h, type))
      expect(res.status).toBe(200)
      const id = res.body.redirect.transaction_id
      expect(res.body.redirect).toEqual({ transaction_id: id, session_id: expect.any(String), url: `${h.url}/provider/${id}` })
      expect(await transactionState(h, id)).toMatchObject({ status: "PENDING", payment_method: { type, masked: null }, transaction_type: "PURCHASE" })
    })

    it.each(["wallet-one-redirect", "wallet-two-redirect"])("%s accepts only PURCHASE (422 on transaction_type)", async (type) => {
      expectInvalid(await h.api("POST", AUTHORIZE, walletRedirectBody(h, type, { transaction_type: "AUTHORIZE" })), "transaction_type")
    })

    it("accepts payment_method without data (data is an unused empty object)", async () => {
      const res = await h.api("POST", AUTHORIZE, walletRedirectBody(h, "wallet-one-redirect", { payment_method: { type: "wallet-one-redirect" } }))
      expect(res.status).toBe(200)
    })

    it("answers INVALID 2015 on a terminal without the wallet redirect method", async () => {
      const res = await h.api("POST", AUTHORIZE, walletRedirectBody(h, "wallet-two-redirect", { terminal_id: "SBX-CARDS-01" }))
      expect(res.body.result).toMatchObject({ status: "INVALID", processing_code: "2015" })
    })
  })
})
