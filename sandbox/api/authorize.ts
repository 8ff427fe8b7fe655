/**
 * POST /api/transactions/authorize: validation, the notification-URL rule (400), terminal checks,
 * idempotency by reference, then the method family takes over (cards/ for card credentials, apm/ for redirects).
 */
import { authorizeRequest, CARD_METHOD_TYPES, isValidNotificationUrl, isVoucherType } from "../schemas"
import { requireMerchant } from "../core/auth"
import { checkTerminal, type SandboxContext } from "../core/context"
import { invalid, json, ReplyError, validateBody, type Reply, type SandboxRequest } from "../core/http"
import { resultResponse } from "../core/views"
import { cardFamily } from "../cards/authorize"
import { redirectFamily } from "../apm/authorize-redirect"
import type { Merchant, PaymentMethodView, TransactionRecord } from "../core/types"
import { assertSameOrder } from "../core/idempotency"
import { OPERATION, type AuthorizeFamily } from "./authorize-family"

// Kept here too for the routes that record under the same operation name (embedded/alternative.ts).
export { OPERATION }

/** The terminal method name an authorize payment_method.type needs (vouchers share one switch). */
export const terminalMethodFor = (type: string) => (isVoucherType(type) ? "voucher-redirect" : type)

export function familyFor(type: string): AuthorizeFamily {
  return CARD_METHOD_TYPES.has(type) ? cardFamily : redirectFamily
}

const FEATURE: Record<string, string> = {
  PURCHASE: "TRX_TYPE_PURCHASE",
  AUTHORIZE: "TRX_TYPE_AUTHORIZE",
  OCT: "TRX_TYPE_OCT",
  PAYOUT: "TRX_TYPE_PAYOUT",
}

/** The payment_method view of a transaction that got no further than its request. */
export const requestedMethod = (type: string, method: string | null = null): PaymentMethodView => ({
  type,
  method,
  brand: null,
  masked: null,
  hash: null,
  token: null,
})

/** A transaction refused by its terminal or merchant is recorded as INVALID with the 2013-2017 code. */
export function refusedTransaction(
  ctx: SandboxContext,
  merchant: Merchant,
  base: { terminal_id: string; reference: string; description: string; currency: string; amount: number; transaction_type: TransactionRecord["transaction_type"] },
  paymentMethod: PaymentMethodView,
  refusal: { processing_code: string; message: string },
  req: SandboxRequest,
  operation: string,
): TransactionRecord {
  const tx = ctx.store.createTransaction(
    {
      ...base,
      merchant_id: merchant.merchant_id,
      status: "CREATED",
      integration_type: "DIRECT_API",
      // The Transaction always carries a payment_method object: a refused one shows at least what was asked for.
      payment_method: paymentMethod,
      customer: null,
      metadata: {},
      customer_ip: req.remoteAddress,
      originator_url: "",
    },
    operation,
  )
  ctx.store.setStatus(tx, "INVALID", { processing_code: refusal.processing_code, response_message: refusal.message })
  return tx
}

export async function authorize(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const body = validateBody(req, authorizeRequest)
  const override = body.options?.three_ds?.notification_url
  if (override !== undefined && !isValidNotificationUrl(override))
    // Spec: 400 before any transaction is created; the body is not shown, so we say what is wrong.
    return json(400, { error: "Bad Request", message: "options.three_ds.notification_url must be an https URL with a host, at most 256 characters" })

  const existing = ctx.store.findByReference(merchant.merchant_id, body.terminal_id, body.reference)
  if (existing) {
    assertSameOrder(req, existing, body)
    // Only a repeat of the same call is a replay; the reference of another kind of transaction stays taken.
    const sameCall =
      existing.transaction_type === body.transaction_type &&
      existing.integration_type === "DIRECT_API" &&
      existing.payment_method.type === body.payment_method.type
    if (!sameCall)
      throw invalid(req, "reference", "was already used on this terminal by another transaction", [body.reference])
    ctx.store.recordLedger(existing, OPERATION, true)
    return json(200, familyFor(existing.payment_method.type).replay(ctx, existing))
  }

  const type = body.payment_method.type
  const check = checkTerminal(merchant, body.terminal_id, { feature: FEATURE[body.transaction_type], method: terminalMethodFor(type) })
  if ("refusal" in check) {
    const tx = refusedTransaction(ctx, merchant, body, requestedMethod(type), check.refusal, req, OPERATION)
    return json(200, resultResponse(tx))
  }
  const response = await familyFor(type).start(ctx, { merchant, terminal: check.terminal, body, req })
  return json(200, response)
}

export { ReplyError }
