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
  if (typeof found === "string") return found
  const { session, tx } = found
  if (tx.status !== "APPROVED") return `ignored:gateway_status_${tx.status.toLowerCase()}`
  if (session.data.reference !== undefined && session.data.reference !== tx.reference) {
    // Money was taken for an attempt the session no longer points at (the amount changed since): the merchant
    // must look at it; completing the cart from it could charge the wrong amount.
    ctx.logger.warn(`PGS: approved transaction ${tx.id} belongs to an older attempt of payment session ${session.id}; not applied`)
    return "ignored:stale_attempt"
  }
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
