/**
 * Idempotency by reference for the payment and payout endpoints: the same reference on the terminal with the
 * same amount and currency returns the existing transaction; anything else reusing it is a validation error.
 */
import type { SandboxContext } from "../core/context"
import { invalid, type SandboxRequest } from "../core/http"
import type { Merchant, TransactionRecord } from "../core/types"
import { assertSameOrder } from "../core/idempotency"

export function existingTransaction(
  ctx: SandboxContext,
  req: SandboxRequest,
  merchant: Merchant,
  body: { terminal_id: string; reference: string; amount: number; currency: string },
  type: TransactionRecord["transaction_type"],
  operation: string,
): TransactionRecord | undefined {
  const existing = ctx.store.findByReference(merchant.merchant_id, body.terminal_id, body.reference)
  if (!existing) return undefined
  assertSameOrder(req, existing, body)
  // Assumption: references are unique per terminal across endpoints, so a PAYMENT reference cannot name a PAYOUT.
  if (existing.transaction_type !== type)
    throw invalid(req, "reference", `was already used on this terminal by a ${existing.transaction_type} transaction`, [body.reference])
  ctx.store.recordLedger(existing, operation, true)
  return existing
}
