/** Conformance: what a card transaction records and shows (result, status endpoint, webhook payload). */
import { transactionEventPayload } from "../../src/gateway/schemas"
import { startHarnessWithReceiver, waitFor, type SandboxHarness } from "../support/sandbox"
import type { WebhookReceiver } from "../support/webhook-receiver"
import { authorizeCard, ERROR_URL, record, RETURN_URL } from "./cards-support"

let h: SandboxHarness
let hooks: WebhookReceiver
let close: () => Promise<void>
beforeAll(async () => ({ h, receiver: hooks, close } = await startHarnessWithReceiver()))
afterAll(() => close())

const year = new Date().getFullYear() + 4

describe("card transaction records", () => {
  it("payment_method shows brand, the PAN masked as 400000******1000, type card and a hash", async () => {
    const res = await authorizeCard(h, { payment_method: h.encryptedCard({ number: h.testCard("frictionless_approved") }) })
    expect(res.body.result.payment_method).toEqual({
      type: "card",
      brand: "VISA",
      masked: "400000******1000",
      method: "card",
      hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      token: null,
    })
  })

  it("the hash is the same for the same card and differs between cards", async () => {
    const a = await authorizeCard(h, { payment_method: h.encryptedCard({ number: h.testCard("frictionless_approved") }) })
    const b = await authorizeCard(h, { payment_method: h.encryptedCard({ number: h.testCard("frictionless_approved") }) })
    const c = await authorizeCard(h, { payment_method: h.encryptedCard({ number: h.testCard("frictionless_approved", "MASTERCARD") }) })
    expect(a.body.result.payment_method.hash).toBe(b.body.result.payment_method.hash)
    expect(c.body.result.payment_method.hash).not.toBe(a.body.result.payment_method.hash)
    expect(c.body.result.payment_method).toMatchObject({ brand: "MASTERCARD", masked: "520000******1005" })
  })

  it("payment_method_expiry is the last day of the expiry month", async () => {
    const res = await authorizeCard(h, { payment_method: h.encryptedCard({ number: h.testCard("frictionless_approved"), month: "2", year: String(year) }) })
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
    expect((await record(h, res.body.result.id)).payment_method_expiry).toBe(`${year}-02-${leap ? "29" : "28"}`)
  })

  it("a 2-digit expiry year is read as 20yy", async () => {
    const res = await authorizeCard(h, { payment_method: h.encryptedCard({ number: h.testCard("frictionless_approved"), month: "12", year: String(year).slice(2) }) })
    expect((await record(h, res.body.result.id)).payment_method_expiry).toBe(`${year}-12-31`)
  })

  it("customer, metadata, URLs, integration type DIRECT_API and number_of_instalments null are kept", async () => {
    const customer = { first_name: "Ada", last_name: "Lovelace", email: "ada@example.com", country: "GB" }
    const res = await authorizeCard(h, {
      customer,
      metadata: { order: "42" },
      error_url: ERROR_URL,
      cancel_url: "https://shop.example/cancel",
    })
    expect(res.body.result.customer).toMatchObject(customer)
    const tx = await record(h, res.body.result.id)
    expect(tx).toMatchObject({
      metadata: { order: "42" },
      return_url: RETURN_URL,
      error_url: ERROR_URL,
      cancel_url: "https://shop.example/cancel",
      integration_type: "DIRECT_API",
      number_of_instalments: null,
      originator_url: h.url,
    })
    expect(tx.customer_ip).toMatch(/^(127\.0\.0\.1|::1)$/)
  })

  it("customer_ip and originator_url given on the request are kept", async () => {
    const res = await authorizeCard(h, { customer_ip: "203.0.113.9", originator_url: "https://shop.example/checkout#pay" })
    expect(await record(h, res.body.result.id)).toMatchObject({ customer_ip: "203.0.113.9", originator_url: "https://shop.example/checkout#pay" })
  })

  it("the approval webhook carries the card view, authentication_status and payment_method_expiry", async () => {
    const res = await authorizeCard(h, {
      transaction_type: "AUTHORIZE",
      payment_method: h.encryptedCard({ number: h.testCard("frictionless_approved", "MASTERCARD"), month: "6", year: String(year) }),
    })
    const id = res.body.result.id
    const hook = await waitFor(() => hooks.received.find((w) => w.body?.payload?.id === id), { what: "authorize webhook" })
    expect(hook.body.event).toBe("transaction-svc:transaction:authorize:authorized")
    expect(transactionEventPayload.safeParse(hook.body.payload).success).toBe(true)
    expect(hook.body.payload).toMatchObject({
      status: "APPROVED",
      integration_type: "DIRECT_API",
      payment_method_type: "card",
      payment_method_brand: "MASTERCARD",
      payment_method_masked: "520000******1005",
      authentication_status: "AUTHENTICATED",
      payment_method_expiry: `${year}-06-30`,
      number_of_instalments: null,
    })
  })

  it("no webhook is sent while a card transaction awaits authentication (CREATED)", async () => {
    const res = await authorizeCard(h, { payment_method: h.encryptedCard({ number: h.testCard("form_submit_declined") }) })
    const id = res.body.form_submit.transaction_id
    await h.raw("POST", res.body.form_submit.url, { form: res.body.form_submit.data })
    const hook = await waitFor(() => hooks.received.find((w) => w.body?.payload?.id === id), { what: "decline webhook" })
    // The first webhook for this transaction is the final one.
    expect(hook.body).toMatchObject({ event: "transaction-svc:transaction:purchase:declined", payload: { status: "DECLINED" } })
    expect(hooks.received.filter((w) => w.body?.payload?.id === id)).toHaveLength(1)
  })
})
