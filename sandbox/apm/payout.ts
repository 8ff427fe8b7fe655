/**
 * POST /api/transactions/payout: a bank-account payout. It never redirects: `result` is PENDING until the
 * control POST /_sandbox/transactions/:id/outcome (or metadata simulate_result) finishes it.
 */
import { payoutRequest } from "../schemas"
import { refusedTransaction } from "../api/authorize"
import { requireMerchant } from "../core/auth"
import { checkTerminal, type SandboxContext } from "../core/context"
import { json, validateBody, type Reply, type SandboxRequest } from "../core/http"
import { resultResponse } from "../core/views"
import { existingTransaction } from "./idempotency"
import { openTransaction } from "./open-transaction"
import { simulatedResult } from "./simulate"

export const PAYOUT_OPERATION = "POST /api/transactions/payout"

/** Only the last 4 digits stay visible. */
export const maskAccount = (accountNumber: string) => `****${accountNumber.replace(/\s+/g, "").slice(-4)}`

export async function createPayout(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const body = validateBody(req, payoutRequest)
  const simulated = simulatedResult(req, body.metadata)

  const existing = existingTransaction(ctx, req, merchant, body, "PAYOUT", PAYOUT_OPERATION)
  if (existing) return json(200, resultResponse(existing))

  // Assumption: a payout needs only the TRX_TYPE_PAYOUT feature; the beneficiary type is not a terminal method switch.
  const masked = maskAccount(body.beneficiary.data.account_number)
  const paymentMethod = { type: `payout_${body.beneficiary.type}`, method: masked, masked, brand: null, hash: null, token: null }
  const check = checkTerminal(merchant, body.terminal_id, { feature: "TRX_TYPE_PAYOUT" })
  if ("refusal" in check) {
    const tx = refusedTransaction(ctx, merchant, { ...body, transaction_type: "PAYOUT" }, paymentMethod, check.refusal, req, PAYOUT_OPERATION)
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
      transaction_type: "PAYOUT",
      integration_type: "DIRECT_API",
      payment_method: paymentMethod,
      customer: body.customer ?? null,
      metadata: body.metadata ?? {},
      customer_ip: body.customer_ip || req.remoteAddress,
      originator_url: check.terminal.website,
      return_url: body.return_url,
    },
    simulated,
    PAYOUT_OPERATION,
  )
  return json(200, resultResponse(tx))
}
