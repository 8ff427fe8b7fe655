import { errorFromResponse, GatewayBadRequestError, GatewayForbiddenError, GatewayNotFoundError, GatewayProtocolError, GatewayRateLimitedError, GatewayUnauthorizedError, GatewayUnavailableError, GatewayValidationError } from "../errors"
import { outcomeForCode, outcomeOf } from "../outcomes"
import { backoffDelay, DEFAULT_RETRY, shouldRetry } from "../retry"
import { GatewayTimeoutError } from "../errors"
import { PACKAGE_NAME, PACKAGE_VERSION } from "../version"
import { redact, redactPath } from "../redact"
import { isFullTransaction, statusResponse } from "../schemas/responses"

describe("processing outcomes", () => {
  it.each([
    ["0000", "approved"],
    ["1000", "declined"],
    ["1001", "failed"],
    ["1002", "pending"],
    ["1003", "canceled"],
    ["1004", "insufficient_funds"],
    ["1005", "session_expired"],
    ["2000", "invalid_request"],
    ["2013", "terminal_not_found"],
    ["2014", "terminal_inactive"],
    ["2015", "terminal_not_accepting"],
    ["2016", "terminal_refused"],
    ["2017", "merchant_inactive"],
    ["TRX_STATUS_DECLINED", "declined"],
    ["TRX_STATUS_FAILED", "failed"],
    ["TRX_STATUS_DECLINED_INSUFFICIENT_FUNDS", "insufficient_funds"],
    ["INVALID_REQUEST_PAYMENT_METHOD_INACTIVE", "payment_method_inactive"],
    ["9999", "unknown"],
  ])("maps %s to %s with a shopper message and a merchant message", (code, name) => {
    const o = outcomeForCode(code)
    expect(o.name).toBe(name)
    expect(o.shopperMessage.length).toBeGreaterThan(10)
    expect(o.merchantMessage.length).toBeGreaterThan(10)
    // Shopper messages never mention internal codes.
    expect(o.shopperMessage).not.toMatch(/\d{4}|TRX_|INVALID_/)
  })

  it("prefers the specific decline code in response_message over the generic processing code", () => {
    expect(outcomeOf({ processing_code: "1000", response_message: "TRX_STATUS_DECLINED_INSUFFICIENT_FUNDS" }).name).toBe("insufficient_funds")
    expect(outcomeOf({ processing_code: "2000", response_message: null, errors: [{ code: "INVALID_REQUEST_PAYMENT_METHOD_INACTIVE" }] }).name).toBe("payment_method_inactive")
    expect(outcomeOf({ processing_code: "0000", response_message: "Approved" }).name).toBe("approved")
  })
})

describe("HTTP status to typed error", () => {
  const base = { requestId: "req_1", operation: "POST /api/transactions/authorize" }
  it("maps each status to its class, keeping status, body and request id", () => {
    const v = errorFromResponse({ ...base, statusCode: 422, body: { errors: [{ message: "size must be at most 40", params: ["reference", "40", "41"], property: "reference" }], method: "POST", status: 422 } })
    expect(v).toBeInstanceOf(GatewayValidationError)
    expect((v as GatewayValidationError).fields[0].property).toBe("reference")
    expect(v.requestId).toBe("req_1")
    expect(errorFromResponse({ ...base, statusCode: 401, body: { error: "Unauthorized" } })).toBeInstanceOf(GatewayUnauthorizedError)
    const forbidden = errorFromResponse({ ...base, statusCode: 403, body: undefined })
    expect(forbidden).toBeInstanceOf(GatewayForbiddenError)
    expect(forbidden.message).toMatch(/User-Agent/)
    expect(forbidden.message).toMatch(/Content-Type/)
    expect(forbidden.message).toMatch(/HTTPS/)
    expect(errorFromResponse({ ...base, statusCode: 400, body: {} })).toBeInstanceOf(GatewayBadRequestError)
    expect(errorFromResponse({ ...base, statusCode: 404, body: {} })).toBeInstanceOf(GatewayNotFoundError)
    const limited = errorFromResponse({ ...base, statusCode: 429, body: {}, retryAfter: "2" }) as GatewayRateLimitedError
    expect(limited).toBeInstanceOf(GatewayRateLimitedError)
    expect(limited.retryAfterMs).toBe(2000)
    expect(errorFromResponse({ ...base, statusCode: 503, body: {} })).toBeInstanceOf(GatewayUnavailableError)
    expect(errorFromResponse({ ...base, statusCode: 418, body: {} })).toBeInstanceOf(GatewayProtocolError)
  })

  it("names INVALID_REQUEST_PAYMENT_METHOD_INACTIVE in a 422 as an outcome", () => {
    const v = errorFromResponse({ ...base, statusCode: 422, body: { errors: [{ message: "INVALID_REQUEST_PAYMENT_METHOD_INACTIVE", params: [], property: "payment_method.data.payment_method_id" }], method: "POST", status: 422 } }) as GatewayValidationError
    expect(v.outcome?.name).toBe("payment_method_inactive")
    expect(v.shopperMessage).toMatch(/saved card/)
  })
})

describe("retry rule", () => {
  const op = { operation: "x" }
  it("repeats never-sent requests for any call, transient failures only for idempotent calls", () => {
    const notSent = new GatewayUnavailableError("refused", false, op)
    const lost = new GatewayUnavailableError("reset", true, op)
    const timeout = new GatewayTimeoutError("slow", 100, op)
    const limited = new GatewayRateLimitedError("429", null, op)
    expect(shouldRetry(notSent, "unsafe")).toBe(true)
    for (const e of [lost, timeout, limited]) {
      expect(shouldRetry(e, "idempotent")).toBe(true)
      expect(shouldRetry(e, "unsafe")).toBe(false)
    }
    expect(shouldRetry(new GatewayValidationError([], false, op), "idempotent")).toBe(false)
  })

  it("backs off exponentially with full jitter up to a cap, and honours Retry-After up to its cap", () => {
    expect(backoffDelay(1, DEFAULT_RETRY, undefined, () => 1)).toBe(200)
    expect(backoffDelay(2, DEFAULT_RETRY, undefined, () => 1)).toBe(400)
    expect(backoffDelay(10, DEFAULT_RETRY, undefined, () => 1)).toBe(2000)
    expect(backoffDelay(3, DEFAULT_RETRY, undefined, () => 0)).toBe(0)
    expect(backoffDelay(1, DEFAULT_RETRY, new GatewayRateLimitedError("", 1000, op))).toBe(1000)
    expect(backoffDelay(1, DEFAULT_RETRY, new GatewayRateLimitedError("", 60_000, op))).toBe(5000)
  })
})

describe("redaction and identity", () => {
  it("redacts secrets, tokens, card fields and stored method ids", () => {
    const out = JSON.stringify(redact({
      client_secret: "s3cr3t",
      headers: { authorization: "Bearer abc.def.ghi" },
      payment_method: { type: "card", data: { encrypted_card_number: "ENC", encrypted_cvv: "ENC2" } },
      saved: { payment_method_id: "pm_1" },
      payment_data: "PD",
      note: "sent Bearer xyz",
      amount: 100,
    }))
    for (const secret of ["s3cr3t", "abc.def.ghi", "ENC", "pm_1", "PD", "xyz"]) expect(out).not.toContain(secret)
    expect(out).toContain("100")
    expect(redactPath("/api/payment-methods/pm_123")).not.toContain("pm_123")
  })

  it("names the package and version of package.json in the User-Agent", () => {
    const pkg = require("../../../package.json")
    expect([PACKAGE_NAME, PACKAGE_VERSION]).toEqual([pkg.name, pkg.version])
  })
})

describe("the status response forms", () => {
  it("accepts the short form (id, status, amount, currency) documented for the 3-D Secure flow", () => {
    const parsed = statusResponse.parse({ found: true, transaction: { id: "trx_1", status: "APPROVED", amount: 1000, currency: "EUR" } })
    expect(parsed.transaction).toEqual({ id: "trx_1", status: "APPROVED", amount: 1000, currency: "EUR" })
    expect(isFullTransaction(parsed.transaction!)).toBe(false)
  })

  it("refuses a short form with an unknown status", () => {
    expect(statusResponse.safeParse({ found: true, transaction: { id: "trx_1", status: "DONE", amount: 1000, currency: "EUR" } }).success).toBe(false)
  })
})

describe("the outcome never contradicts the status", () => {
  it.each([
    [{ status: "APPROVED", processing_code: null }, "approved"],
    [{ status: "DECLINED", processing_code: null }, "declined"],
    [{ status: "PENDING", processing_code: null }, "pending"],
    [{ status: "APPROVED", processing_code: "9999" }, "approved"],
    [{ status: "DECLINED", processing_code: "0000" }, "declined"],
    [{ status: "DECLINED", processing_code: "1004", response_message: "TRX_STATUS_DECLINED_INSUFFICIENT_FUNDS" }, "insufficient_funds"],
    [{ status: "CANCELED", processing_code: "1003" }, "canceled"],
  ])("%o → %s", (tx, name) => {
    expect(outcomeOf(tx).name).toBe(name)
  })
})
