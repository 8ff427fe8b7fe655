import { startHarnessWithReceiver, type SandboxHarness } from "../support/sandbox"
import type { WebhookReceiver } from "../support/webhook-receiver"
import {
  findForm,
  forceOutcome,
  paymentBody,
  providerInstantBody,
  submit,
  transactionState,
  URLS,
  voucherBody,
  waitForEvents,
  walletRedirectBody,
} from "./redirects-support"

describe("sandbox provider pages (redirect methods, end to end over HTTP)", () => {
  let h: SandboxHarness
  let receiver: WebhookReceiver
  let close: () => Promise<void>
  beforeAll(async () => ({ h, receiver, close } = await startHarnessWithReceiver()))
  afterAll(() => close())

  /** Start a redirect and open the page its URL points to, as the customer's browser does. */
  async function openPage(path: string, body: unknown) {
    const res = await h.api("POST", path, body)
    expect(res.status).toBe(200)
    const { transaction_id: id, url } = res.body.redirect
    const page = await h.raw("GET", url)
    expect(page.status).toBe(200)
    expect(page.headers["content-type"]).toContain("text/html")
    return { id, html: page.text }
  }
  const payment = (overrides: Record<string, unknown> = {}) => openPage("/api/transactions/payment", paymentBody(h, overrides))
  const authorize = (body: unknown) => openPage("/api/transactions/authorize", body)

  describe("alternative payments (payment endpoint)", () => {
    it("shows what is being paid: amount, description, reference and method", async () => {
      const body = paymentBody(h, { amount: 12_345, currency: "EUR", method: "UPI", description: "Blue teapot" })
      const { html } = await openPage("/api/transactions/payment", body)
      expect(html).toContain("123.45 EUR")
      expect(html).toContain("Blue teapot")
      expect(html).toContain(body.reference)
      expect(html).toContain("UPI")
    })

    it("Approve: APPROVED, transaction-svc:transaction:authorized after pending, 303 to return_url", async () => {
      const { id, html } = await payment()
      const res = await submit(h, html, "approve")
      expect(res.status).toBe(303)
      expect(res.headers.location).toBe(URLS.return_url)
      expect(await transactionState(h, id)).toMatchObject({ status: "APPROVED", approved: true, pending: false, processing_code: "0000", redirect_url: null })
      expect(await waitForEvents(receiver, id, ["pending", "authorized"])).toEqual([
        "transaction-svc:transaction:pending",
        "transaction-svc:transaction:authorized",
      ])
    })

    it("Decline: DECLINED, transaction-svc:transaction:declined, 303 to error_url", async () => {
      const { id, html } = await payment({ method: "WALLETS" })
      const res = await submit(h, html, "decline")
      expect(res.status).toBe(303)
      expect(res.headers.location).toBe(URLS.error_url)
      expect(await transactionState(h, id)).toMatchObject({ status: "DECLINED", processing_code: "1000" })
      expect(await waitForEvents(receiver, id, ["pending", "declined"])).toEqual([
        "transaction-svc:transaction:pending",
        "transaction-svc:transaction:declined",
      ])
    })

    it("Cancel: CANCELED (processing code 1003), declined webhook, 303 to cancel_url", async () => {
      const { id, html } = await payment({ method: "QR_CODE" })
      const res = await submit(h, html, "cancel")
      expect(res.status).toBe(303)
      expect(res.headers.location).toBe(URLS.cancel_url)
      expect(await transactionState(h, id)).toMatchObject({ status: "CANCELED", processing_code: "1003" })
      expect(await waitForEvents(receiver, id, ["pending", "declined"])).toEqual([
        "transaction-svc:transaction:pending",
        "transaction-svc:transaction:declined",
      ])
    })

    it.each(["BANK_SCHEME_REDIRECT", "OPENBANKING_REDIRECT", "OPEN_BANKING"])(
      "%s: Leave pending keeps the payment PENDING (never canceled automatically), returns to return_url; the control approves it later",
      async (method) => {
        const { id, html } = await payment({ method })
        const res = await submit(h, html, "pending")
        expect(res.status).toBe(303)
        expect(res.headers.location).toBe(URLS.return_url)
        expect(await transactionState(h, id)).toMatchObject({ status: "PENDING", pending: true })
        await forceOutcome(h, id, "APPROVED")
        expect(await waitForEvents(receiver, id, ["pending", "authorized"])).toEqual([
          "transaction-svc:transaction:pending",
          "transaction-svc:transaction:authorized",
        ])
      },
    )

    it("a bank redirect left pending can be declined later by the control", async () => {
      const { id, html } = await payment({ method: "BANK_SCHEME_REDIRECT" })
      await submit(h, html, "pending")
      await forceOutcome(h, id, "DECLINED")
      expect(await waitForEvents(receiver, id, ["pending", "declined"])).toEqual([
        "transaction-svc:transaction:pending",
        "transaction-svc:transaction:declined",
      ])
    })

    it.each(["UPI", "WALLETS", "BANK_TRANSFER", "QR_CODE"])("does not offer Leave pending for %s", async (method) => {
      const { id, html } = await payment({ method })
      expect(findForm(html, "approve")).not.toBeNull()
      expect(findForm(html, "pending")).toBeNull()
      const res = await h.raw("POST", `/provider/${id}/pending`, { form: {} })
      expect(res.status).toBe(404)
      expect((await transactionState(h, id)).status).toBe("PENDING")
    })

    it("a second submit after the payment finished returns to the merchant for the final state and changes nothing", async () => {
      const { id, html } = await payment()
      await submit(h, html, "decline")
      const again = await submit(h, html, "approve")
      expect(again.status).toBe(303)
      expect(again.headers.location).toBe(URLS.error_url)
      expect((await transactionState(h, id)).status).toBe("DECLINED")
    })

    it("shows a finished payment without buttons", async () => {
      const { id, html } = await payment()
      await submit(h, html, "approve")
      const page = await h.raw("GET", `/provider/${id}`)
      expect(page.text).toContain("APPROVED")
      expect(findForm(page.text, "approve")).toBeNull()
    })

    it("answers 404 for an unknown transaction", async () => {
      expect((await h.raw("GET", "/provider/trx_unknown")).status).toBe(404)
    })
  })

  describe("authorize-based redirect methods", () => {
    it("provider-instant asks for the 6-digit scheme code when it was not pre-collected; a wrong code is refused and nothing changes", async () => {
      const { id, html } = await authorize(providerInstantBody(h))
      expect(findForm(html, "approve")!.fields).toHaveProperty("scheme_code")
      const wrong = await submit(h, html, "approve", { scheme_code: "12345" })
      expect(wrong.status).toBe(422)
      expect(wrong.text).toContain("6 digits")
      expect((await transactionState(h, id)).status).toBe("PENDING")
    })

    it("provider-instant Approve with the scheme code: APPROVED, purchase:pending then purchase:approved, 303 to return_url", async () => {
      const { id, html } = await authorize(providerInstantBody(h))
      const res = await submit(h, html, "approve", { scheme_code: "654321" })
      expect(res.status).toBe(303)
      expect(res.headers.location).toBe(URLS.return_url)
      expect(await transactionState(h, id)).toMatchObject({ status: "APPROVED", approved: true })
      expect(await waitForEvents(receiver, id, ["pending", "approved"])).toEqual([
        "transaction-svc:transaction:purchase:pending",
        "transaction-svc:transaction:purchase:approved",
      ])
    })

    it("provider-instant with a pre-collected scheme_code lets the customer skip entering it", async () => {
      const { id, html } = await authorize(providerInstantBody(h, { scheme_code: "123456" }))
      expect(findForm(html, "approve")!.fields).not.toHaveProperty("scheme_code")
      expect((await submit(h, html, "approve")).status).toBe(303)
      expect((await transactionState(h, id)).status).toBe("APPROVED")
    })

    it("provider-instant Decline: DECLINED, purchase:declined, 303 to return_url (no error_url given)", async () => {
      const { id, html } = await authorize(providerInstantBody(h))
      const res = await submit(h, html, "decline")
      expect(res.headers.location).toBe(URLS.return_url)
      expect(await waitForEvents(receiver, id, ["pending", "declined"])).toEqual([
        "transaction-svc:transaction:purchase:pending",
        "transaction-svc:transaction:purchase:declined",
      ])
    })

    it("voucher Cancel: CANCELED and back to return_url (the voucher request has no cancel_url)", async () => {
      const { id, html } = await authorize(voucherBody(h, "voucher-redirect-idl"))
      expect(findForm(html, "pending")).toBeNull()
      const res = await submit(h, html, "cancel")
      expect(res.headers.location).toBe(URLS.return_url)
      expect((await transactionState(h, id)).status).toBe("CANCELED")
    })

    it("voucher Approve: APPROVED and back to return_url", async () => {
      const { id, html } = await authorize(voucherBody(h, "voucher-redirect-psc"))
      expect((await submit(h, html, "approve")).headers.location).toBe(URLS.return_url)
      expect((await transactionState(h, id)).status).toBe("APPROVED")
    })

    it.each([
      ["approve", "APPROVED", URLS.return_url],
      ["decline", "DECLINED", URLS.error_url],
      ["cancel", "CANCELED", URLS.cancel_url],
    ])("wallet-one-redirect %s: %s and 303 to its URL", async (choice, status, location) => {
      const { id, html } = await authorize(walletRedirectBody(h, "wallet-one-redirect"))
      const res = await submit(h, html, choice)
      expect(res.status).toBe(303)
      expect(res.headers.location).toBe(location)
      expect((await transactionState(h, id)).status).toBe(status)
    })

    it("replaying the authorize after the page approved answers the result", async () => {
      const body = walletRedirectBody(h, "wallet-two-redirect")
      const { id, html } = await authorize(body)
      await submit(h, html, "approve")
      const again = await h.api("POST", "/api/transactions/authorize", body)
      expect(again.body).toMatchObject({ redirect: null, result: { id, status: "APPROVED" } })
    })
  })
})
