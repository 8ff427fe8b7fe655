/**
 * The closed set of errors the client throws. Each carries the HTTP status (null when no response came),
 * the gateway's body, the x-request-id when present, the operation ("POST /api/transactions/authorize"),
 * a merchant message (`message`) and a shopper-safe message. Messages never contain secrets: they are built
 * from the status, the route pattern and the gateway's own error text only.
 * HTTP status → error class happens in one function, `errorFromResponse`.
 */
import type { GatewayFieldError } from "./schemas/validation"
import { findTextCode, outcome, type Outcome } from "./outcomes"

export type GatewayErrorType =
  | "validation"
  | "unauthorized"
  | "forbidden"
  | "bad_request"
  | "not_found"
  | "rate_limited"
  | "unavailable"
  | "timeout"
  | "outcome_unknown"
  | "protocol"

export type GatewayErrorInit = {
  statusCode?: number | null
  body?: unknown
  requestId?: string | null
  operation?: string
  shopperMessage?: string
  cause?: unknown
}

const GENERIC_SHOPPER = "Payments are temporarily unavailable. Please try again later."

export abstract class GatewayError extends Error {
  abstract readonly type: GatewayErrorType
  readonly statusCode: number | null
  readonly body: unknown
  readonly requestId: string | null
  readonly operation: string | null
  readonly shopperMessage: string

  constructor(message: string, init: GatewayErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause })
    this.name = new.target.name
    this.statusCode = init.statusCode ?? null
    this.body = init.body
    this.requestId = init.requestId ?? null
    this.operation = init.operation ?? null
    this.shopperMessage = init.shopperMessage ?? GENERIC_SHOPPER
  }

  get merchantMessage(): string {
    return this.message
  }

  toJSON() {
    return {
      type: this.type,
      name: this.name,
      message: this.message,
      statusCode: this.statusCode,
      requestId: this.requestId,
      operation: this.operation,
      body: this.body,
    }
  }
}

/** 422, or a request refused locally before it reached the network (`local` true). */
export class GatewayValidationError extends GatewayError {
  readonly type = "validation"
  /** Set when the failure names a known decline code (INVALID_REQUEST_PAYMENT_METHOD_INACTIVE). */
  readonly outcome: Outcome | null
  /**
   * Set when the gateway refused a REPEAT of a call (after a lost answer) on its reference: the first attempt may
   * have gone through, so check its status before charging again (README, "Assumptions": reference idempotency).
   */
  readonly afterRepeat: boolean
  constructor(readonly fields: GatewayFieldError[], readonly local: boolean, init: GatewayErrorInit & { afterRepeat?: boolean } = {}) {
    const list = fields.map((f) => `${f.property} ${f.message}`).join("; ")
    const code = fields.map((f) => findTextCode(`${f.message} ${f.params.join(" ")}`)).find(Boolean)
    super(`${local ? "Refused before sending" : "The gateway rejected the request"}: ${list || "invalid request"}`, {
      shopperMessage: code ? outcome(code[1]).shopperMessage : "Your payment details could not be processed. Please check them and try again.",
      ...init,
    })
    this.outcome = code ? outcome(code[1], code[0]) : null
    this.afterRepeat = init.afterRepeat ?? false
  }
}

export class GatewayUnauthorizedError extends GatewayError {
  readonly type = "unauthorized"
}

export class GatewayForbiddenError extends GatewayError {
  readonly type = "forbidden"
}

/** 400: on authorize, an invalid options.three_ds.notification_url (https only, a host, at most 256 characters). */
export class GatewayBadRequestError extends GatewayError {
  readonly type = "bad_request"
}

export class GatewayNotFoundError extends GatewayError {
  readonly type = "not_found"
}

export class GatewayRateLimitedError extends GatewayError {
  readonly type = "rate_limited"
  constructor(message: string, readonly retryAfterMs: number | null, init: GatewayErrorInit = {}) {
    super(message, init)
  }
}

/**
 * 5xx, or no usable response (connection refused, reset, dropped). `sent` is false only when the request
 * surely never left this process (the connection could not be opened): then any call is safe to repeat.
 */
export class GatewayUnavailableError extends GatewayError {
  readonly type = "unavailable"
  constructor(message: string, readonly sent: boolean, init: GatewayErrorInit = {}) {
    super(message, init)
  }
}

export class GatewayTimeoutError extends GatewayError {
  readonly type = "timeout"
  constructor(message: string, readonly timeoutMs: number, init: GatewayErrorInit = {}) {
    super(message, init)
  }
}

/** What a later reconciliation needs after a management call whose result is unknown. */
export type ManagementAttempt = {
  transactionType: "CAPTURE" | "REFUND" | "VOID"
  terminalId: string
  reference: string
  parentTransactionId: string | null
  amount: number
  currency: string
  /** Sent in `metadata.idempotency_key`; the management:* webhooks echo it with parent_id. */
  idempotencyKey: string
}

/**
 * A management call (capture, refund, void) lost its response and the status endpoint cannot prove whether it
 * happened. It is NOT retried: doing so could capture or refund twice. Reconcile with `attempt.idempotencyKey`
 * against the management:* webhooks (they carry parent_id and our metadata), or ask the merchant to check.
 */
export class GatewayOutcomeUnknownError extends GatewayError {
  readonly type = "outcome_unknown"
  constructor(message: string, readonly attempt: ManagementAttempt, init: GatewayErrorInit = {}) {
    super(message, { shopperMessage: "We could not confirm this operation yet. Please check again shortly.", ...init })
  }
}

/** A 2xx whose body does not match the spec (not JSON, or a schema mismatch). */
export class GatewayProtocolError extends GatewayError {
  readonly type = "protocol"
  constructor(message: string, readonly issues: GatewayFieldError[] = [], init: GatewayErrorInit = {}) {
    super(message, init)
  }
}

export type AnyGatewayError =
  | GatewayValidationError
  | GatewayUnauthorizedError
  | GatewayForbiddenError
  | GatewayBadRequestError
  | GatewayNotFoundError
  | GatewayRateLimitedError
  | GatewayUnavailableError
  | GatewayTimeoutError
  | GatewayOutcomeUnknownError
  | GatewayProtocolError

export const isGatewayError = (e: unknown): e is AnyGatewayError => e instanceof GatewayError

export type HttpFailure = {
  statusCode: number
  body: unknown
  requestId: string | null
  operation: string
  retryAfter?: string | null
  /** Whether the target is plain http (one of the documented 403 causes). */
  insecure?: boolean
}

function gatewayText(body: unknown): string | null {
  if (body && typeof body === "object") {
    const b = body as Record<string, unknown>
    const parts = [b.error, b.message, b.error_description].filter((v): v is string => typeof v === "string")
    if (parts.length) return parts.join(": ")
  }
  return typeof body === "string" && body.trim() ? body.trim().slice(0, 200) : null
}

export function parseRetryAfter(value: string | null | undefined): number | null {
  if (!value) return null
  const seconds = Number(value)
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000
  const at = Date.parse(value)
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now())
}

/** The one place HTTP status + body become a typed error. */
export function errorFromResponse(f: HttpFailure): AnyGatewayError {
  const init: GatewayErrorInit = { statusCode: f.statusCode, body: f.body, requestId: f.requestId, operation: f.operation }
  const said = gatewayText(f.body)
  const suffix = said ? ` (gateway: ${said})` : ""
  const s = f.statusCode
  if (s === 422) {
    const fields = fieldsOf(f.body)
    return new GatewayValidationError(fields, false, init)
  }
  if (s === 401)
    return new GatewayUnauthorizedError(`${f.operation}: unauthorized; the access token was missing, expired or revoked, or the client credentials are wrong${suffix}`, init)
  if (s === 403) {
    const causes = [
      "no User-Agent header",
      "a Content-Type other than the one the endpoint expects",
      f.insecure ? "plain HTTP instead of HTTPS (this client is configured with an http:// URL)" : "not using HTTPS",
      "missing permission for this operation (e.g. payment_method:detach)",
    ]
    return new GatewayForbiddenError(`${f.operation}: forbidden${said ? suffix : " with an empty body"}; likely causes: ${causes.join(", ")}`, init)
  }
  if (s === 400) return new GatewayBadRequestError(`${f.operation}: bad request${suffix}; on authorize this means options.three_ds.notification_url is not an https URL with a host of at most 256 characters`, init)
  if (s === 404) return new GatewayNotFoundError(`${f.operation}: not found${suffix}`, init)
  if (s === 429) return new GatewayRateLimitedError(`${f.operation}: rate limited${suffix}`, parseRetryAfter(f.retryAfter), init)
  if (s >= 500) return new GatewayUnavailableError(`${f.operation}: gateway error ${s}${suffix}`, true, init)
  return new GatewayProtocolError(`${f.operation}: unexpected HTTP ${s}${suffix}`, [], init)
}

function fieldsOf(body: unknown): GatewayFieldError[] {
  const errors = body && typeof body === "object" ? (body as { errors?: unknown }).errors : undefined
  if (!Array.isArray(errors)) return [{ property: "body", message: gatewayText(body) ?? "validation failed", params: [] }]
  return errors.map((e) => ({
    property: typeof e?.property === "string" ? e.property : "body",
    message: typeof e?.message === "string" ? e.message : String(e),
    params: Array.isArray(e?.params) ? e.params.map(String) : [],
  }))
}
