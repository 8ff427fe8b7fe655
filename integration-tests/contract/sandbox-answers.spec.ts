/**
 * The sandbox's answers against its own reading: real responses parsed with the strict shapes of
 * sandbox/schemas/responses.ts (every Transaction field present, customer and payment_method always objects).
 */
import {
  customerResponse,
  executionResponse,
  sessionResponse,
  statusResponse,
  validationErrorBody,
  type ExecutionResponse,
} from "../../sandbox/schemas"
import { BROWSER_INFO, startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"

const order = (reference = uniqueReference("contract")) => ({ reference, description: "Contract order", currency: "EUR", amount: 1500 })
const RETURN = { return_url: "https://shop.example/ok", error_url: "https://shop.example/error", cancel_url: "https://shop.example/cancel" }

describe("the sandbox's answers match its own response schemas", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  const execution = (body: unknown): ExecutionResponse => executionResponse.parse(body)

  const cardAuthorize = (number: string, extra: Record<string, unknown> = {}) =>
    h.api("POST", "/api/transactions/authorize", {
      ...order(),
      terminal_id: h.terminalId,
      transaction_type: "PURCHASE",
      payment_method: h.encryptedCard({ number }),
      browser_info: BROWSER_INFO,
      return_url: RETURN.return_url,
      ...extra,
    })

  it("a card approved at once: result", async () => {
    expect(execution((await cardAuthorize("4000000000001000")).body).result?.status).toBe("APPROVED")
  })

  it("a card asked for a fingerprint: action", async () => {
    const res = await cardAuthorize("4111111111111111", { metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" } })
    expect(execution(res.body).action?.type).toBe("THREE_DS_2_FINGERPRINT")
  })

  it("a transaction refused by an unknown terminal: a full Transaction, customer and payment_method included", async () => {
    const res = await h.api("POST", "/api/transactions/authorize", {
      ...order(),
      terminal_id: "NO-SUCH-TERM",
      transaction_type: "PURCHASE",
      payment_method: { type: "wallet-one-redirect", data: {} },
      return_url: RETURN.return_url,
    })
    const result = execution(res.body).result!
    expect(result).toMatchObject({ status: "INVALID", processing_code: "2013", payment_method: { type: "wallet-one-redirect" } })
    expect(result.customer).toEqual(expect.objectContaining({ id: null, email: null }))
  })

  it("a payment: redirect; its status: found", async () => {
    const res = await h.api("POST", "/api/transactions/payment", {
      ...order(),
      terminal_id: h.terminalId,
      method: "OPEN_BANKING",
      country: "IN",
      customer_ip: "203.0.113.7",
      ...RETURN,
    })
    const redirect = execution(res.body).redirect!
    const status = await h.api("GET", `/api/transactions/${redirect.transaction_id}/status`)
    expect(statusResponse.parse(status.body).found).toBe(true)
  })

  it("a payout: result", async () => {
    const res = await h.api("POST", "/api/transactions/payout", {
      ...order(),
      currency: "INR",
      terminal_id: h.terminalId,
      beneficiary: { type: "bank_account", data: { account_number: "001234567890", account_name: "Asha Rao", ifsc: "HDFC0001234" } },
    })
    expect(execution(res.body).result?.transaction_type).toBe("PAYOUT")
  })

  it("an unknown transaction's status, a session, a customer and a 422", async () => {
    expect(statusResponse.parse((await h.api("GET", "/api/transactions/trx_unknown/status")).body)).toEqual({ found: false, transaction: null })
    const session = await h.api("POST", "/api/sessions", { ...order(), terminal_id: h.terminalId, transaction_type: "PURCHASE", return_url: RETURN.return_url })
    expect(sessionResponse.parse(session.body).status).toBe("CREATED")
    const customer = await h.api("POST", "/api/customers", { email: "asha@shop.example", address: { city: "Pune", country: "IN" } })
    expect(customerResponse.parse(customer.body).city).toBe("Pune")
    const invalid = await h.api("POST", "/api/transactions/authorize", { reference: "" })
    expect(validationErrorBody.parse(invalid.body).status).toBe(422)
  })
})
