/**
 * Transaction events about our payouts. A payout's reference is ours, not a payment session's, so these are
 * matched against the payout rows (by reference, or by transaction id) before the session handlers see them.
 * The body only names the transaction: its state is read from the gateway, and it only moves a payout forward
 * (PENDING → APPROVED/DECLINED/…; a final status never changes).
 */
import type { TransactionEventPayload } from "../../gateway"
import { FINAL_PAYOUT_STATUSES } from "../../modules/pgs/models"
import { progressOf } from "../payouts/send"
import { payoutAmountMinor } from "../../modules/pgs/service"
import type { EventContext, EventOutcome } from "./context"

/** The outcome, or null when the event is not about one of our payouts. */
export async function handlePayoutEvent(ctx: EventContext, payload: TransactionEventPayload): Promise<EventOutcome | null> {
  const [payout] = await ctx.pgs.listPgsPayouts({ $or: [{ reference: payload.reference }, { transaction_id: payload.id }] }, { take: 1 })
  if (!payout) return null
  if (payout.terminal_id !== payload.terminal_id) return "ignored:payout_terminal_mismatch"
  if (FINAL_PAYOUT_STATUSES.has(payout.status)) return `ignored:payout_already_${payout.status.toLowerCase()}`

  const read = await ctx.client.status.transaction(payload.id)
  if (!read) return "ignored:unknown_transaction"
  const tx = read.transaction
  if (tx.reference !== payout.reference || tx.terminal_id !== payout.terminal_id) return "ignored:reference_mismatch"
  if (tx.currency.toLowerCase() !== payout.currency_code || tx.amount !== payoutAmountMinor(payout))
    return "ignored:payout_amount_mismatch"

  const progress = progressOf(tx)
  if (progress.status === "PENDING" && payout.status === "PENDING" && payout.transaction_id === tx.id) return "ignored:payout_pending"
  const moved = await ctx.pgs.advancePayout(payout.id, progress)
  return moved ? `applied:payout_${progress.status.toLowerCase()}` : "ignored:payout_already_final"
}
