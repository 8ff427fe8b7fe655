/** POST /api/transactions/authorize, /payment and /payout: the calls that start a transaction. Idempotent by reference. */
import { authorizeRequest, paymentRequest, payoutRequest, type AuthorizeRequest, type PaymentRequest, type PayoutRequest } from "../schemas/requests"
import { executionResponse } from "../schemas/responses"
import type { GatewayFieldError } from "../schemas/validation"
import { GatewayProtocolError } from "../errors"
import { toExecutionResult, type ExecutionResult, type FinishedResult } from "../results"
import type { Operation, Requester } from "../requester"

/** The two documents disagree on the payout reference limit (80 vs 40): we send at most 40, which both allow. */
export const PAYOUT_REFERENCE_MAX = 40
const payoutCheck = (body: { reference?: unknown }): GatewayFieldError[] => {
  const errors: GatewayFieldError[] = []
  if (typeof body?.reference === "string" && body.reference.length > PAYOUT_REFERENCE_MAX)
    errors.push({ property: "reference", message: `size must be at most ${PAYOUT_REFERENCE_MAX}`, params: ["reference", String(PAYOUT_REFERENCE_MAX), String(body.reference.length)] })
  return errors
}

export const AUTHORIZE: Operation<typeof executionResponse> = {
  method: "POST",
  pattern: "/api/transactions/authorize",
  kind: "write",
  safety: "idempotent",
  request: authorizeRequest,
  response: executionResponse,
}
export const PAYMENT: Operation<typeof executionResponse> = { ...AUTHORIZE, pattern: "/api/transactions/payment", request: paymentRequest }
export const PAYOUT: Operation<typeof executionResponse> = { ...AUTHORIZE, pattern: "/api/transactions/payout", request: payoutRequest, check: payoutCheck }

export class Payments {
  constructor(private readonly requester: Requester) {}

  /** PURCHASE, AUTHORIZE, OCT or PAYOUT with any payment method input (card, saved card, tokens, redirect methods). */
  async authorize(body: AuthorizeRequest): Promise<ExecutionResult> {
    return toExecutionResult(await this.requester.call(AUTHORIZE, { body }), "POST /api/transactions/authorize")
  }

  /** Alternative payment methods (type PAYMENT): usually a redirect, final status by webhook. */
  async payment(body: PaymentRequest): Promise<ExecutionResult> {
    return toExecutionResult(await this.requester.call(PAYMENT, { body }), "POST /api/transactions/payment")
  }

  /** Bank-account payouts: always a `result` (PENDING, APPROVED or DECLINED). */
  async payout(body: PayoutRequest): Promise<FinishedResult> {
    const result = toExecutionResult(await this.requester.call(PAYOUT, { body }), "POST /api/transactions/payout")
    if (result.kind !== "finished")
      throw new GatewayProtocolError(`POST /api/transactions/payout: expected a result, got ${result.kind}`, [], { operation: "POST /api/transactions/payout", body: result.raw })
    return result
  }
}
