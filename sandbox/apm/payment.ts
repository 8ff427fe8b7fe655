/**
 * POST /api/transactions/payment: alternative payments (OPEN_BANKING, UPI, WALLETS, BANK_TRANSFER, QR_CODE and the
 * two bank redirects). A new payment is PENDING and answers a redirect to the sandbox provider page.
 */
import { paymentRequest } from "../schemas"
import { refusedTransaction, requestedMethod } from "../api/authorize"
import { requireMerchant } from "../core/auth"
import { checkTerminal, type SandboxContext } from "../core/context"
import { json, validateBody, type Reply, type SandboxRequest } from "../core/http"
import { resultResponse } from "../core/views"
import { existingTransaction } from "./idempotency"
import { openTransaction } from "./open-transaction"
import { redirectOrResult } from "./provider-flow"
import { simulatedResult } from "./simulate"

export const PAYMENT_OPERATION = "POST /api/transactions/payment"

/** payment_method.type of a payment result: payment_open_banking, payment_upi, payment_wallets, ... */
export const paymentMethodType = (method: string) => `payment_${method.toLowerCase()}`

export async function createPayment(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const body = validateBody(req, paymentRequest)
  const simulated = simulatedResult(req, body.metadata)

  const existing = existingTransaction(ctx, req, merchant, body, "PAYMENT", PAYMENT_OPERATION)
  if (existing) return json(200, redirectOrResult(ctx, existing))

  const check = checkTerminal(merchant, body.terminal_id, { feature: "TRX_TYPE_PAYMENT", method: body.method })
  if ("refusal" in check) {
    const tx = refusedTransaction(ctx, merchant, { ...body, transaction_type: "PAYMENT" }, requestedMethod(paymentMethodType(body.method), body.method), check.refusal, req, PAYMENT_OPERATION)
    return json(200, resultResponse(tx))
  }

  const tx = openTransaction(
    ctx,
    {
      merchant_id: merchant.merchant_id,
      terminal_id: body.terminal_id,
      reference: body.reference,
      description: body.description,
      currency: body.currency,
      amount: body.amount,
      transaction_type: "PAYMENT",
      integration_type: "DIRECT_API",
      payment_method: { type: paymentMethodType(body.method), method: body.method, brand: null, masked: null, hash: null, token: null },
      customer: body.customer ?? null,
      metadata: body.metadata ?? {},
      customer_ip: body.customer_ip,
      originator_url: body.originator_url || check.terminal.website,
      return_url: body.return_url,
      error_url: body.error_url,
      cancel_url: body.cancel_url,
    },
    simulated,
    PAYMENT_OPERATION,
    { origin: "payment", method: body.method, needs_scheme_code: false },
  )
  return json(200, redirectOrResult(ctx, tx))
}
