/**
 * An approval (authorize:authorized, purchase:approved, transaction:authorized): re-read the transaction from the
 * gateway (the body is not trusted beyond naming it), then hand it to Medusa's processPaymentWorkflow, which
 * authorizes the session and completes the cart if the shopper never came back. It is idempotent: an order that
 * already exists is not created again. A collection without a cart goes through applyCollectionPayment (once,
 * under its own lock). Money no order will keep (late-money.ts) goes back.
 */
import { processPaymentWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, PaymentActions } from "@medusajs/framework/utils"
import { fromMinorUnits, type TransactionEventPayload } from "../../gateway"
import type { EventContext, EventOutcome } from "./context"
import { findCartIdForCollection, findOrderIdForCollection, orderStatus, sameMoney, sessionAndTransaction } from "./lookup"
import { applyCollectionPayment } from "../order-payments/apply-collection-payment"
import { giveBackLateMoney } from "./late-money"
import { findRetiredSession } from "../../modules/pgs/retired-sessions"
import { sessionIdFromReference } from "../../payments/reference"
import { needsAttach, recordTransaction } from "./attach"

export async function handleApproval(ctx: EventContext, payload: TransactionEventPayload): Promise<EventOutcome> {
  const found = await sessionAndTransaction(ctx, payload)
  if (found === "ignored:unknown_session") return approvalForDeletedSession(ctx, payload)
  if (typeof found === "string") return found
  const { session, tx } = found
  if (tx.status !== "APPROVED") return `ignored:gateway_status_${tx.status.toLowerCase()}`
  if (session.data.reference !== undefined && session.data.reference !== tx.reference)
    // Money was taken for an attempt the session no longer points at (the amount changed since): completing the
    // cart from it could charge the wrong amount. It goes back.
    return giveBackLateMoney(ctx, tx, "older_attempt")
  if (!sameMoney(session, tx)) {
    ctx.logger.warn(`PGS: approved transaction ${tx.id} is not for the amount of payment session ${session.id}; not applied`)
    return "ignored:amount_mismatch"
  }
  const orderId = await findOrderIdForCollection(ctx.container, session.payment_collection_id)
  if (orderId && (await orderStatus(ctx.container, orderId)) === "canceled") return giveBackLateMoney(ctx, tx, "canceled_order", orderId)

  if (needsAttach(session, tx.id)) await recordTransaction(ctx.container, session, tx.id)
  // A collection without a cart (an order's, money after checkout): applied once, under the collection's lock,
  // whether the shopper's store route or this webhook comes first.
  if (!(await findCartIdForCollection(ctx.container, session.payment_collection_id))) {
    const applied = await applyCollectionPayment(ctx.container, { sessionId: session.id, collectionId: session.payment_collection_id })
    if (applied.kind === "applied") return `applied:collection_${applied.captured ? "captured" : "authorized"}`
    if (applied.kind === "already_applied") return "ignored:already_applied"
    return `ignored:collection_${applied.kind}`
  }
  // PURCHASE and PAYMENT (alternative methods) take the money in one step: Medusa records it captured.
  const action = tx.transaction_type === "AUTHORIZE" ? PaymentActions.AUTHORIZED : PaymentActions.SUCCESSFUL
  await processPaymentWorkflow(ctx.container).run({
    input: { action, data: { session_id: session.id, amount: fromMinorUnits(tx.amount, tx.currency) } },
  })
  return `applied:${action}`
}

/**
 * The gateway took money for a reference of ours whose payment session Medusa deleted (the shopper paid at the
 * provider after the cart moved on). It is ours only if the provider kept the session on record when Medusa
 * deleted it; then it goes back. Otherwise a person is told: a reference that merely looks like ours is not proof.
 */
async function approvalForDeletedSession(ctx: EventContext, payload: TransactionEventPayload): Promise<EventOutcome> {
  const read = await ctx.client.status.transaction(payload.id)
  if (!read || read.transaction.status !== "APPROVED" || read.transaction.reference !== payload.reference) return "ignored:unknown_session"
  const tx = read.transaction
  const knex = ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const retired = await findRetiredSession(knex, sessionIdFromReference(tx.reference)!)
  if (retired && (!retired.terminal_id || retired.terminal_id === tx.terminal_id)) return giveBackLateMoney(ctx, tx, "deleted_session")
  ctx.logger.error(
    `PGS: transaction ${tx.id} (${tx.reference}, ${tx.amount} ${tx.currency} minor units) was APPROVED but its payment session is not on record: no order will record it — refund it at the gateway`,
  )
  return "attention:approved_without_payment"
}
