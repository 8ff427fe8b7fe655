/** Every endpoint through the client, against the sandbox over HTTP, and every branch of the execution response. */
import {
  authenticationCompletedFromCres,
  fingerprintForm,
  fingerprintResult,
  GatewayBadRequestError,
  GatewayNotFoundError,
  GatewayUnavailableError,
  GatewayValidationError,
  type ExecutionResult,
} from "../../src/gateway"
import { BROWSER_INFO, startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"
import { cardAuthorize, caught, clientFor, RETURN_URL, stats } from "./support"
import { decideAtAcs } from "../sandbox/cards-support"
import type { PgsClient } from "../../src/gateway"

let h: SandboxHarness
let client: PgsClient
beforeAll(async () => {
  h = await startHarness()
  client = clientFor(h)
})
afterAll(async () => {
  await client.close()
  await h.close()
})

const URLS = { return_url: RETURN_URL, error_url: "https://shop.example/error", cancel_url: "https://shop.example/cancel" }

function expectKind<K extends ExecutionResult["kind"]>(result: ExecutionResult, kind: K): Extract<ExecutionResult, { kind: K }> {
  expect(result.kind).toBe(kind)
  return result as Extract<ExecutionResult, { kind: K }>
}

describe("authorize", () => {
  it("finishes a frictionless card payment as approved", async () => {
    const done = expectKind(await client.payments.authorize(cardAuthorize(h, client)), "finished")
    expect(done.transaction).toMatchObject({ status: "APPROVED", approved: true, processing_code: "0000" })
    expect(done.outcome.name).toBe("approved")
    expect(done.transactionId).toBe(done.transaction.id)
  })

  it("names the insufficient-funds decline with a shopper-safe message", async () => {
    const done = expectKind(await client.payments.authorize(cardAuthorize(h, client, "frictionless_insufficient_funds")), "finished")
    expect(done.transaction.status).toBe("DECLINED")
    expect(done.outcome.name).toBe("insufficient_funds")
    expect(done.outcome.shopperMessage).not.toMatch(/TRX_|\d{4}/)
  })

  it("returns a redirect for the interactive 3-D Secure card", async () => {
    const r = expectKind(await client.payments.authorize(cardAuthorize(h, client, "redirect_interactive")), "redirect")
    expect(r.redirect.url).toBe(`${h.url}/simulator/simplified/three-ds/${r.transactionId}`)
  })

  it("returns a form submission for the form-submit card", async () => {
    const r = expectKind(await client.payments.authorize(cardAuthorize(h, client, "form_submit_authenticated")), "form_submit")
    expect(r.formSubmit.data).toMatchObject({ trans_status: "Y" })
  })

  it("runs the full 3-D Secure flow: fingerprint, challenge, authentication-completed", async () => {
    const body = cardAuthorize(h, client, "frictionless_approved", { metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" } })
    const fp = expectKind(await client.payments.authorize(body), "fingerprint")
    expect(fp.token.three_ds_server_trans_id).toBe(fp.action.session_id)
    expect(fingerprintForm(fp.token)?.fields.threeDSMethodData).toBeTruthy()
    const challenge = expectKind(
      await client.threeDS.requestAuthentication(fp.token.three_ds_server_trans_id, { fingerprint_result: fingerprintResult(true), payment_data: fp.action.payment_data }),
      "challenge",
    )
    expect(challenge.token.acs_url).toMatch(/^http/)
    // The shopper approves at the ACS; its cres is what would arrive on an overridden notification URL.
    const cres = (await decideAtAcs(h, challenge.action, "approve")).fields.cres
    const done = expectKind(await client.threeDS.authenticationCompleted(authenticationCompletedFromCres(cres, challenge.action.payment_data)), "finished")
    expect(done.transaction.status).toBe("APPROVED")
    expect((await client.status.transaction(done.transactionId))?.outcome.name).toBe("approved")
  })

  it("refuses an invalid request locally, naming the field like the gateway, without any network call", async () => {
    const before = await stats(h)
    const error = await caught(client.payments.authorize({ ...cardAuthorize(h, client), reference: "x".repeat(41), amount: 10.5 }))
    expect(error).toBeInstanceOf(GatewayValidationError)
    expect(error.local).toBe(true)
    expect(error.fields.map((f: { property: string }) => f.property).sort()).toEqual(["amount", "reference"])
    expect(error.fields.find((f: { property: string }) => f.property === "reference")).toEqual({ property: "reference", message: "size must be at most 40", params: ["reference", "40", "41"] })
    const after = await stats(h)
    expect(after.requests["POST /api/transactions/authorize"] ?? 0).toBe(before.requests["POST /api/transactions/authorize"] ?? 0)
  })

  it("leaves the request's check to the gateway when told to (as the plugin's client is), whose 422 names the same fields", async () => {
    const gatewayChecks = clientFor(h, { validateRequests: false })
    try {
      const before = await stats(h)
      const error = await caught(gatewayChecks.payments.authorize({ ...cardAuthorize(h, gatewayChecks), reference: "x".repeat(41), amount: 10.5 }))
      expect(error).toBeInstanceOf(GatewayValidationError)
      expect(error.local).toBe(false)
      expect(error.statusCode).toBe(422)
      expect(error.fields.map((f: { property: string }) => f.property).sort()).toEqual(["amount", "reference"])
      const after = await stats(h)
      expect(after.requests["POST /api/transactions/authorize"]).toBe((before.requests["POST /api/transactions/authorize"] ?? 0) + 1)
      // A valid body goes through as it does with the check.
      const done = expectKind(await gatewayChecks.payments.authorize(cardAuthorize(h, gatewayChecks)), "finished")
      expect(done.transaction.status).toBe("APPROVED")
    } finally {
      await gatewayChecks.close()
    }
  })

  it("refuses a phone number that is not a possible E.164 number before sending", async () => {
    const error = await caught(client.payments.authorize(cardAuthorize(h, client, "frictionless_approved", { customer: { phone: "+4860123" } })))
    expect(error).toBeInstanceOf(GatewayValidationError)
    expect(error.fields[0].property).toBe("customer.phone")
  })

  it("maps the gateway's own 422 (reference reused with another amount) with its field list", async () => {
    const body = cardAuthorize(h, client)
    await client.payments.authorize(body)
    const error = await caught(client.payments.authorize({ ...body, amount: body.amount + 1 }))
    expect(error).toBeInstanceOf(GatewayValidationError)
    expect(error.local).toBe(false)
    expect(error.statusCode).toBe(422)
    expect(error.fields[0].property).toBe("reference")
    expect(error.requestId).toMatch(/^req_/)
  })

  it("maps a bad notification URL override to a bad request error (400)", async () => {
    const error = await caught(client.payments.authorize(cardAuthorize(h, client, "frictionless_approved", { options: { three_ds: { notification_url: "http://insecure.example/3ds" } } })))
    expect(error).toBeInstanceOf(GatewayBadRequestError)
    expect(error.statusCode).toBe(400)
  })

  it("charges a saved card and names INVALID_REQUEST_PAYMENT_METHOD_INACTIVE after the card is deleted", async () => {
    const saved = expectKind(await client.payments.authorize(cardAuthorize(h, client, "frictionless_approved", { tokenization: { save_card_for_future_payments: true } })), "finished")
    const token = saved.transaction.payment_method?.token
    expect(token).toEqual(expect.any(String))
    const charge = () =>
      client.payments.authorize({
        reference: uniqueReference("saved"),
        terminal_id: h.terminalId,
        description: "saved card",
        currency: "EUR",
        amount: 500,
        transaction_type: "PURCHASE",
        payment_method: client.encryption.savedCard(token!, "123"),
        browser_info: BROWSER_INFO,
        return_url: RETURN_URL,
      })
    expect(expectKind(await charge(), "finished").transaction.status).toBe("APPROVED")
    expect(await client.storedMethods.delete(token!)).toMatchObject({ id: token, status: "DELETED" })
    expect(await client.storedMethods.delete(token!)).toMatchObject({ id: token, status: "DELETED" })
    const error = await caught(charge())
    expect(error).toBeInstanceOf(GatewayValidationError)
    expect(error.outcome?.name).toBe("payment_method_inactive")
  })

  it("starts a provider-instant redirect (PLN)", async () => {
    const r = await client.payments.authorize({
      reference: uniqueReference("pi"),
      terminal_id: h.terminalId,
      description: "Instant",
      currency: "PLN",
      amount: 4990,
      transaction_type: "PURCHASE",
      payment_method: { type: "provider-instant", data: { email: "jan@example.pl", first_name: "Jan", last_name: "Kowalski", phone: "+48601234567" } },
      return_url: RETURN_URL,
    })
    expect(r.kind).toBe("redirect")
  })
})

describe("payment, payout, status", () => {
  it("starts an alternative payment (PAYMENT) with a redirect and reads it back by status", async () => {
    const r = await client.payments.payment({
      terminal_id: h.terminalId,
      reference: uniqueReference("pay"),
      description: "Order",
      currency: "EUR",
      amount: 2500,
      method: "OPEN_BANKING",
      country: "DE",
      customer_ip: "203.0.113.10",
      ...URLS,
    })
    expect(["redirect", "finished"]).toContain(r.kind)
    const status = await client.status.transaction(r.transactionId)
    expect(status?.transaction.transaction_type).toBe("PAYMENT")
  })

  it("creates a payout with a PENDING result", async () => {
    const r = await client.payments.payout({
      terminal_id: h.terminalId,
      reference: uniqueReference("po"),
      description: "Seller payout",
      currency: "INR",
      amount: 150_000,
      beneficiary: { type: "bank_account", data: { account_number: "001234567890", account_name: "Asha Rao", ifsc: "HDFC0001234" } },
    })
    expect(r.transaction).toMatchObject({ status: "PENDING", transaction_type: "PAYOUT" })
    expect(r.outcome.name).toBe("pending")
  })

  it("sends at most 40 characters of payout reference (the documents disagree: 80 vs 40)", async () => {
    const error = await caught(
      client.payments.payout({
        terminal_id: h.terminalId,
        reference: "p".repeat(41),
        description: "Seller payout",
        currency: "INR",
        amount: 100,
        beneficiary: { type: "bank_account", data: { account_number: "1", account_name: "A", ifsc: "HDFC0001234" } },
      }),
    )
    expect(error).toBeInstanceOf(GatewayValidationError)
    expect(error.fields[0]).toMatchObject({ property: "reference", message: "size must be at most 40" })
  })

  it("answers found false for an unknown transaction", async () => {
    expect(await client.status.retrieve("trx_does_not_exist")).toEqual({ found: false, transaction: null })
    expect(await client.status.transaction("trx_does_not_exist")).toBeNull()
  })

  it("refuses an id no gateway could hold (U+0000, an unpaired surrogate) locally, naming it, instead of throwing", async () => {
    for (const id of ["trx\u0000x", "trx\ud800", "\udc00"]) {
      const error = await caught(client.status.retrieve(id))
      expect(error).toBeInstanceOf(GatewayValidationError)
      expect(error.local).toBe(true)
      expect(error.fields.map((f: { property: string }) => f.property)).toHaveLength(1)
    }
  })
})

describe("configuration mistakes", () => {
  it("reports a wrong base URL path as not found, with the request id", async () => {
    const wrong = clientFor(h, { baseUrl: `${h.url}/nope` })
    const error = await caught(wrong.status.retrieve("trx_1"))
    expect(error).toBeInstanceOf(GatewayNotFoundError)
    expect(error.statusCode).toBe(404)
    expect(error.requestId).toMatch(/^req_/)
    await wrong.close()
  })

  it("reports an unknown realm as not found at the token endpoint", async () => {
    const wrong = clientFor(h, { realm: "no-such-realm" })
    const error = await caught(wrong.status.retrieve("trx_1"))
    expect(error).toBeInstanceOf(GatewayNotFoundError)
    expect(error.operation).toMatch(/openid-connect\/token/)
    await wrong.close()
  })

  it("reports a gateway that cannot be reached as unavailable, not sent", async () => {
    const wrong = clientFor(h, { authUrl: "http://127.0.0.1:9", baseUrl: "http://127.0.0.1:9" })
    const error = await caught(wrong.status.retrieve("trx_1"))
    expect(error).toBeInstanceOf(GatewayUnavailableError)
    expect(error.sent).toBe(false)
    await wrong.close()
  })
})

describe("sessions, customers, hosted pages, management", () => {
  it("creates an Embedded Fields session, idempotent by reference", async () => {
    const body = { terminal_id: h.terminalId, reference: uniqueReference("ses"), description: "Session", currency: "EUR", amount: 1000, transaction_type: "AUTHORIZE" as const, return_url: RETURN_URL }
    const a = await client.sessions.create(body)
    expect(a).toMatchObject({ status: "CREATED", reference: body.reference })
    expect((await client.sessions.create(body)).id).toBe(a.id)
  })

  it("creates a customer whose id links a saved card", async () => {
    const c = await client.customers.create({ email: "client@example.com", first_name: "Ada", phone: "+14155552671", address: { country: "US", city: "SF" } })
    expect(c).toMatchObject({ email: "client@example.com", first_name: "Ada", country: "US" })
    const saved = await client.payments.authorize(cardAuthorize(h, client, "frictionless_approved", { customer: { id: c.id }, tokenization: { save_card_for_future_payments: true } }))
    const token = (saved as Extract<ExecutionResult, { kind: "finished" }>).transaction.payment_method!.token!
    expect(await client.storedMethods.delete(token)).toMatchObject({ customer_id: c.id })
  })

  it("creates a hosted payment page", async () => {
    const page = await client.hostedPages.create({
      terminal_id: h.terminalId,
      reference: uniqueReference("hpp"),
      description: "Hosted",
      currency: "EUR",
      amount: 7500,
      success_url: "https://shop.example/s",
      cancel_url: "https://shop.example/c",
      error_url: "https://shop.example/e",
    })
    expect(page.url).toMatch(/^http/)
  })

  it("captures part of an authorization, refunds it, and voids another authorization", async () => {
    const auth = cardAuthorize(h, client, "frictionless_approved", { transaction_type: "AUTHORIZE" })
    const authorized = await client.payments.authorize(auth)
    const base = { terminal_id: h.terminalId, reference: auth.reference, currency: "EUR", parent_transaction_id: authorized.transactionId }
    const capture = await client.modifications.capture({ ...base, amount: 1000 }, { idempotencyKey: "cap-key-1" })
    expect(capture.kind).toBe("applied")
    if (capture.kind !== "applied") throw new Error()
    expect(capture.transaction).toMatchObject({ transaction_type: "CAPTURE", status: "APPROVED", amount: 1000 })
    expect(capture.idempotencyKey).toBe("cap-key-1")
    const refund = await client.modifications.refund({ ...base, amount: 400 })
    expect(refund.kind === "applied" && refund.transaction.transaction_type).toBe("REFUND")

    const other = cardAuthorize(h, client, "frictionless_approved", { transaction_type: "AUTHORIZE" })
    const otherAuth = await client.payments.authorize(other)
    const voided = await client.modifications.void({ terminal_id: h.terminalId, reference: other.reference, currency: "EUR", amount: other.amount, parent_transaction_id: otherAuth.transactionId })
    expect(voided.kind === "applied" && voided.transaction.status).toBe("APPROVED")
    expect((await client.status.retrieve(otherAuth.transactionId)).transaction?.status).toBe("CANCELED")
  })
})
