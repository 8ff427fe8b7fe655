/**
 * An approval (authorize:authorized, purchase:approved, transaction:authorized): re-read the transaction from the
 * gateway (the body is not trusted beyond naming it), then hand it to Medusa's processPaymentWorkflow, which
 * authorizes the session and completes the cart if the shopper never came back. It is idempotent: an order that
 * already exists is not created again.
 */
import { processPaymentWorkflow } from "@medusajs/core-flows"
import { PaymentActions } from "@medusajs/framework/utils"
import { fromMinorUnits, type TransactionEventPayload } from "../../gateway"
import type { EventContext, EventOutcome } from "./context"
import { sameMoney, sessionAndTransaction } from "./lookup"
import { needsAttach, updateSession } from "./attach"

export async function handleApproval(ctx: EventContext, payload: TransactionEventPayload): Promise<EventOutcome> {
  const found = await sessionAndTransaction(ctx, payload)
  if (found === "ignored:unknown_session") return orphanApproval(ctx, payload, "its payment session no longer exists (the cart changed or another method was chosen)")
  if (typeof found === "string") return found
  const { session, tx } = found
  if (tx.status !== "APPROVED") return `ignored:gateway_status_${tx.status.toLowerCase()}`
  if (session.data.reference !== undefined && session.data.reference !== tx.reference)
    // Money was taken for an attempt the session no longer points at (the amount changed since): completing the
    // cart from it could charge the wrong amount.
    return orphanApproval(ctx, payload, `it belongs to an older attempt of payment session ${session.id}`)
  if (!sameMoney(session, tx)) {
    ctx.logger.warn(`PGS: approved transaction ${tx.id} is not for the amount of payment session ${session.id}; not applied`)
    return "ignored:amount_mismatch"
  }

  if (needsAttach(session, tx.id)) await updateSession(ctx, session, { attach: tx.id })
  // PURCHASE and PAYMENT (alternative methods) take the money in one step: Medusa records it captured.
  const action = tx.transaction_type === "AUTHORIZE" ? PaymentActions.AUTHORIZED : PaymentActions.SUCCESSFUL
  await processPaymentWorkflow(ctx.container).run({
    input: { action, data: { session_id: session.id, amount: fromMinorUnits(tx.amount, tx.currency) } },
  })
  return `applied:${action}`
}

/**
 * The gateway took money for a reference of ours that no Medusa payment will ever record (the shopper paid at the
 * provider after the cart moved on). Nothing is applied automatically — a refund needs a merchant's decision — but
 * the event log says so (`attention:*`, shown in the admin's timeline) and the log names the transaction.
 */
async function orphanApproval(ctx: EventContext, payload: TransactionEventPayload, why: string): Promise<EventOutcome> {
  const read = await ctx.client.status.transaction(payload.id)
  if (!read || read.transaction.status !== "APPROVED" || read.transaction.reference !== payload.reference) return "ignored:unknown_session"
  const tx = read.transaction
  ctx.logger.error(
    `PGS: transaction ${tx.id} (${tx.reference}, ${tx.amount} ${tx.currency} minor units) was APPROVED but ${why}: no order will record it — refund it at the gateway`,
  )
  return "attention:approved_without_payment"
}
