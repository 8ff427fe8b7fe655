/**
 * THE RETRY RULE (one place, applied by every call):
 *
 * 1. A request that never left this process (the connection could not be opened) is repeated for any call.
 * 2. A 401 is renewed-and-replayed once by the auth layer (the gateway refused it before doing anything).
 * 3. Network errors after sending, timeouts, 429 and 5xx are repeated ONLY for calls where a repeat cannot do
 *    anything twice ("idempotent"):
 *      - reads: GET status;
 *      - the token call;
 *      - calls idempotent by reference: payment and payout (the spec says so), authorize and sessions (the spec
 *        says the reference is unique per terminal; that a repeat returns the existing transaction is our
 *        assumption, README "Assumptions"). Same terminal + reference + amount + currency returns the existing
 *        transaction or session. If the gateway instead refuses a repeat on its reference, the error says so
 *        (GatewayValidationError.afterRepeat): the first attempt may have succeeded — check before charging again;
 *      - DELETE payment method (documented as idempotent).
 * 4. Everything else is "unsafe" and never repeated blindly: 3-D Secure continuations (idempotency not shown),
 *    customer creation and hosted pages (no reference idempotency shown) and management calls. A management call
 *    that lost its response is reconciled through the status endpoint instead (resources/modifications.ts).
 *
 * Backoff: capped exponential with full jitter; a Retry-After from the gateway is honoured up to a cap.
 */
import { GatewayRateLimitedError, GatewayTimeoutError, GatewayUnavailableError, type AnyGatewayError } from "./errors"

export type Safety = "idempotent" | "unsafe"

export type RetryPolicy = {
  /** Repeats after the first attempt. */
  maxRetries: number
  baseDelayMs: number
  maxDelayMs: number
  /** A Retry-After longer than this is cut to this. */
  maxRetryAfterMs: number
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 200, maxDelayMs: 2_000, maxRetryAfterMs: 5_000 }

/** Did the gateway surely not receive the request? */
export const neverSent = (error: AnyGatewayError) => error instanceof GatewayUnavailableError && !error.sent

/** Transient failures: the gateway may or may not have acted. */
export const isTransient = (error: AnyGatewayError) =>
  error instanceof GatewayUnavailableError || error instanceof GatewayTimeoutError || error instanceof GatewayRateLimitedError

export function shouldRetry(error: AnyGatewayError, safety: Safety): boolean {
  if (neverSent(error)) return true
  return safety === "idempotent" && isTransient(error)
}

/** Delay before retry number `retry` (1-based). */
export function backoffDelay(retry: number, policy: RetryPolicy, error?: AnyGatewayError, random: () => number = Math.random): number {
  if (error instanceof GatewayRateLimitedError && error.retryAfterMs !== null) return Math.min(error.retryAfterMs, policy.maxRetryAfterMs)
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1))
  return Math.round(random() * ceiling)
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
