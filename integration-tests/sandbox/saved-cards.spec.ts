/**
 * Conformance: tokenization on authorize, the tokenization webhook, and paying with a saved card
 * (payment_method.type saved_card), including a deleted card (INVALID_REQUEST_PAYMENT_METHOD_INACTIVE).
 */
import { tokenizationPayloadFlat, tokenizationPayloadNested, TOKENIZATION_EVENT } from "../../src/gateway/schemas"
import { startHarnessWithReceiver, waitFor, type SandboxHarness } from "../support/sandbox"
import type { WebhookReceiver } from "../support/webhook-receiver"
import { authorizeCard, formById, record, submit } from "./cards-support"

let h: SandboxHarness
let hooks: WebhookReceiver
let close: () => Promise<void>
beforeAll(async () => ({ h, receiver: hooks, close } = await startHarnessWithReceiver()))
afterAll(() => close())

const saveCard = (extra: Record<string, unknown> = {}, number = h.testCard("frictionless_approved")) =>
  authorizeCard(h, {
    payment_method: h.encryptedCard({ number, month: "7", year: "2031" }),
    tokenization: { save_card_for_future_payments: true },
    ...extra,
  })

const savedCard = (payment_method_id: string, extra: Record<string, unknown> = {}) =>
  authorizeCard(h, { payment_method: { type: "saved_card", data: { payment_method_id, encrypted_cvv: h.encrypt("123") } }, ...extra })

async function newCustomer() {
  const res = await h.api("POST", "/api/customers", { email: "ada@example.com", first_name: "Ada", last_name: "Lovelace" })
  expect(res.status).toBe(200)
  return res.body.id as string
}

const webhooksFor = (subject: string, event: string) =>
  waitFor(() => hooks.received.find((w) => w.body?.event === event && JSON.stringify(w.body).includes(subject)), { what: `${event} for ${subject}` })

describe("tokenization on authorize", () => {
  it("when a card is saved, result.payment_method.token carries the stored payment method id", async () => {
    const res = await saveCard()
    expect(res.body.result).toMatchObject({ status: "APPROVED", payment_method: { type: "card", brand: "VISA" } })
    expect(res.body.result.payment_method.token).toMatch(/^pm_/)
  })

  it("without save_card_for_future_payments no token is issued", async () => {
    const res = await authorizeCard(h, { tokenization: { save_card_for_future_payments: false } })
    expect(res.body.result.payment_method.token).toBeNull()
  })

  it("a declined transaction saves no card", async () => {
    const res = await saveCard({}, h.testCard("frictionless_insufficient_funds"))
    expect(res.body.result.status).toBe("DECLINED")
    expect(res.body.result.payment_method.token).toBeNull()
  })

  it("a card saved after a challenge carries the token in the final result", async () => {
    const res = await saveCard({}, h.testCard("form_submit_authenticated"))
    const fs = res.body.form_submit
    await h.raw("POST", fs.url, { form: fs.data })
    expect((await record(h, fs.transaction_id)).payment_method.token).toMatch(/^pm_/)
  })

  it("the tokenization webhook (documented nested form) is sent for the saved card", async () => {
    const res = await saveCard()
    const token = res.body.result.payment_method.token
    const hook = await webhooksFor(token, TOKENIZATION_EVENT)
    expect(tokenizationPayloadNested.safeParse(hook.body.payload).success).toBe(true)
    expect(hook.body.payload).toMatchObject({
      payment_method: {
        id: token,
        type: "card",
        card: { brand: "VISA", bin: "400000", last_4: "1000", masked: "400000******1000", exp_month: 7, exp_year: 2031 },
      },
      transaction_id: res.body.result.id,
      customer: null,
    })
    expect(typeof hook.headers.authorization).toBe("string")
  })

  it("the purchase webhook is sent on approval with payment_method_token null (the token travels in the tokenization event)", async () => {
    const res = await saveCard()
    const hook = await webhooksFor(res.body.result.id, "transaction-svc:transaction:purchase:approved")
    expect(hook.body.payload).toMatchObject({ id: res.body.result.id, status: "APPROVED", payment_method_token: null, payment_method_masked: "400000******1000" })
  })

  it("with tokenization_payload flat the webhook uses the flat data form", async () => {
    await h.control("POST", "/_sandbox/settings", { tokenization_payload: "flat" })
    try {
      const res = await saveCard()
      const token = res.body.result.payment_method.token
      const hook = await webhooksFor(token, TOKENIZATION_EVENT)
      expect(tokenizationPayloadFlat.safeParse(hook.body.payload).success).toBe(true)
      expect(hook.body.payload.data).toMatchObject({
        payment_method_id: token,
        payment_method_type: "card",
        card_brand: "VISA",
        card_bin: "400000",
        card_last_4: "1000",
        card_masked: "400000******1000",
        transaction_id: res.body.result.id,
      })
    } finally {
      await h.control("POST", "/_sandbox/settings", { tokenization_payload: "nested" })
    }
  })

  it("a saved card is assigned to the customer when customer.id is sent", async () => {
    const customerId = await newCustomer()
    const res = await saveCard({ customer: { id: customerId } })
    const token = res.body.result.payment_method.token
    const hook = await webhooksFor(token, TOKENIZATION_EVENT)
    expect(hook.body.payload.customer).toEqual({ id: customerId, first_name: "Ada", last_name: "Lovelace", email: "ada@example.com" })
  })

  it("customer.id of a customer that does not exist is a 422 on customer.id", async () => {
    const res = await saveCard({ customer: { id: "cus_does_not_exist" } })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("customer.id")
  })
})

describe("paying with a saved card", () => {
  it("saved_card with the stored token is approved and shows the card masked with its token", async () => {
    const token = (await saveCard()).body.result.payment_method.token
    const res = await savedCard(token)
    expect(res.status).toBe(200)
    expect(res.body.result).toMatchObject({
      status: "APPROVED",
      payment_method: { type: "saved_card", brand: "VISA", masked: "400000******1000", token },
    })
    expect((await record(h, res.body.result.id)).payment_method_expiry).toBe("2031-07-31")
  })

  it("3-D Secure always applies to a saved card: the stored number picks the simulator scenario", async () => {
    const first = (await saveCard({}, h.testCard("redirect_interactive"))).body
    // A redirect-scenario card is saved only once the customer approved.
    const page = await h.raw("GET", first.redirect.url)
    await submit(h, formById(page.text, "approve"))
    const stored = (await record(h, first.redirect.transaction_id)).payment_method.token
    const res = await savedCard(stored)
    expect(res.body.redirect.url).toBe(`${h.url}/simulator/simplified/three-ds/${res.body.redirect.transaction_id}`)
  })

  it("encrypted_cvv is optional for a saved card", async () => {
    const token = (await saveCard()).body.result.payment_method.token
    const res = await authorizeCard(h, { payment_method: { type: "saved_card", data: { payment_method_id: token } } })
    expect(res.body.result.status).toBe("APPROVED")
  })

  it("an unknown payment_method_id is a 422 on payment_method.data.payment_method_id", async () => {
    const res = await savedCard("pm_unknown")
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("payment_method.data.payment_method_id")
  })

  it("a deleted card is rejected with INVALID_REQUEST_PAYMENT_METHOD_INACTIVE", async () => {
    const token = (await saveCard()).body.result.payment_method.token
    const deleted = await h.api("DELETE", `/api/payment-methods/${token}`)
    expect(deleted.body).toMatchObject({ id: token, status: "DELETED" })
    const res = await savedCard(token)
    expect(res.status).toBe(422)
    expect(res.body.errors).toEqual([
      {
        property: "payment_method.data.payment_method_id",
        message: "INVALID_REQUEST_PAYMENT_METHOD_INACTIVE",
        params: ["payment_method_id", "INVALID_REQUEST_PAYMENT_METHOD_INACTIVE"],
      },
    ])
  })

  it("a card saved for one customer is refused with another customer.id", async () => {
    const owner = await newCustomer()
    const other = await newCustomer()
    const token = (await saveCard({ customer: { id: owner } })).body.result.payment_method.token
    expect((await savedCard(token, { customer: { id: owner } })).body.result.status).toBe("APPROVED")
    const res = await savedCard(token, { customer: { id: other } })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("payment_method.data.payment_method_id")
  })
})
