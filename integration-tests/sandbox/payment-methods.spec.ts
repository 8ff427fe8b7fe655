import { deletedPaymentMethodResponse } from "../../src/gateway/schemas"
import { BROWSER_INFO, startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"
import { authorizeCard, expectInvalid, otherMerchant, RETURN_URL } from "./management-helpers"

describe("DELETE /api/payment-methods/{payment_method_id}", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  /** Save a card the way a merchant does: an approved authorize with tokenization.save_card_for_future_payments. */
  async function savedCard(customerId?: string): Promise<string> {
    const res = await authorizeCard(h, {
      type: "PURCHASE",
      extra: {
        tokenization: { save_card_for_future_payments: true },
        ...(customerId ? { customer: { id: customerId } } : {}),
      },
    })
    expect(res.body.result).toMatchObject({ status: "APPROVED", payment_method: { token: expect.any(String) } })
    return res.body.result.payment_method.token
  }

  const chargeSavedCard = (token: string) =>
    h.api("POST", "/api/transactions/authorize", {
      reference: uniqueReference("saved"),
      terminal_id: h.terminalId,
      description: "saved card charge",
      currency: "EUR",
      amount: 1_000,
      transaction_type: "PURCHASE",
      payment_method: { type: "saved_card", data: { payment_method_id: token, encrypted_cvv: h.encrypt("123") } },
      browser_info: BROWSER_INFO,
      return_url: RETURN_URL,
    })

  it("deletes a saved card: 200 with the payment method whose status is DELETED", async () => {
    const token = await savedCard()
    const res = await h.api("DELETE", `/api/payment-methods/${token}`)
    expect(res.status).toBe(200)
    expect(deletedPaymentMethodResponse.parse(res.body)).toEqual({
      id: token,
      status: "DELETED",
      type: "card",
      customer_id: null,
      card: {
        brand: "VISA",
        bin: "400000",
        last_4: h.testCard("frictionless_approved").slice(-4),
        masked: expect.stringMatching(/^400000\*+\d{4}$/),
        exp_month: 12,
        exp_year: new Date().getFullYear() + 2,
      },
      created_at: expect.any(String),
      deleted_at: expect.any(String),
    })
  })

  it("is idempotent: deleting again returns the same DELETED record", async () => {
    const token = await savedCard()
    const first = await h.api("DELETE", `/api/payment-methods/${token}`)
    const second = await h.api("DELETE", `/api/payment-methods/${token}`)
    expect(second.status).toBe(200)
    expect(second.body).toEqual(first.body)
  })

  it("a deleted card cannot be charged: the transaction is rejected with INVALID_REQUEST_PAYMENT_METHOD_INACTIVE", async () => {
    const token = await savedCard()
    expect((await chargeSavedCard(token)).body.result).toMatchObject({ status: "APPROVED" })
    await h.api("DELETE", `/api/payment-methods/${token}`)
    const refused = await chargeSavedCard(token)
    expectInvalid(refused, "payment_method.data.payment_method_id")
    expect(refused.text).toContain("INVALID_REQUEST_PAYMENT_METHOD_INACTIVE")
  })

  it("shows the customer the card was saved for (customer.id on the authorize)", async () => {
    const customer = await h.api("POST", "/api/customers", { email: "saver@example.com" })
    const token = await savedCard(customer.body.id)
    const res = await h.api("DELETE", `/api/payment-methods/${token}`)
    expect(res.body).toMatchObject({ id: token, status: "DELETED", customer_id: customer.body.id })
  })

  it("refuses an unknown payment method with 422 on payment_method_id", async () => {
    const res = await h.api("DELETE", "/api/payment-methods/pm_unknown")
    expectInvalid(res, "payment_method_id", ["payment_method_id", "pm_unknown"])
  })

  it("answers another merchant's card exactly like an unknown one, and leaves it ACTIVE", async () => {
    const token = await savedCard()
    const other = await otherMerchant(h)
    const res = await other.api("DELETE", `/api/payment-methods/${token}`)
    expectInvalid(res, "payment_method_id", ["payment_method_id", token])
    expect((await chargeSavedCard(token)).body.result).toMatchObject({ status: "APPROVED" })
  })

  it("refuses the public client key (x-client-key without a bearer) with 403", async () => {
    const token = await savedCard()
    const res = await h.raw("DELETE", `/api/payment-methods/${token}`, { headers: { "x-client-key": h.config.client_key } })
    expect(res.status).toBe(403)
    expect(res.body).toEqual({ error: expect.stringMatching(/^Forbidden/) })
    expect((await chargeSavedCard(token)).body.result).toMatchObject({ status: "APPROVED" })
  })

  it("forbids a call with a non-JSON Content-Type with 403 and an empty body", async () => {
    const res = await h.raw("DELETE", "/api/payment-methods/pm_x", {
      headers: { authorization: `Bearer ${await h.bearer()}`, "content-type": "text/plain" },
    })
    expect(res.status).toBe(403)
    expect(res.text).toBe("")
  })

  it("answers 401 {error} without a bearer token", async () => {
    const res = await h.raw("DELETE", "/api/payment-methods/pm_x")
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "Unauthorized" })
  })
})
