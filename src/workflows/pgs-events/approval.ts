/**
 * An approval (authorize:authorized, purchase:approved, transaction:authorized): re-read the transaction from the
 * gateway (the body is not trusted beyond naming it), then hand it to Medusa's processPaymentWorkflow, which
 * authorizes the session and completes the cart if the shopper never came back. It is idempotent: an order that
 * already exists is not created again. A collection without a cart goes through applyCollectionPayment (once,
 * under its own lock). Money no order will keep (late-money.ts) goes back. An approval the checkout had already
 * recorded (a Direct API payment, answered at once) is only checked against Medusa's records (recordedAtCheckout).
 */
import { processPaymentWorkflow } from "@medusajs/core-flows"
import { ContainerRegistrationKeys, PaymentActions } from "@medusajs/framework/utils"
import type { TransactionEventPayload } from "../../gateway"
import { medusaAmountOf } from "../../lib/medusa-amount"
import type { EventContext, EventOutcome } from "./context"
import { findCartIdForCollection, findOrderIdForCollection, orderStatus, sameMoney, sessionAndTransaction, sessionOfEvent, type SessionView } from "./lookup"
import { applyCollectionPayment } from "../order-payments/apply-collection-payment"
import { giveBackLateMoney } from "./late-money"
import { findRetiredSession } from "../../modules/pgs/retired-sessions"
import { sessionIdFromReference } from "../../payments/reference"
import { needsAttach, recordTransaction } from "./attach"
import { recordedPaymentOfSession } from "../../modules/pgs/medusa-tables"
import { isSingleStep, type GatewayTransactionType } from "../../payments/session-data"

/** The outcome of an approval the checkout had already recorded (see recordedAtCheckout). */
export const RECORDED_AT_CHECKOUT = "ignored:already_recorded"

export async function handleApproval(ctx: EventContext, payload: TransactionEventPayload): Promise<EventOutcome> {
  const known = await sessionOfEvent(ctx, payload)
  if (typeof known !== "string" && (await recordedAtCheckout(ctx, known, payload))) return RECORDED_AT_CHECKOUT
  const found = await sessionAndTransaction(ctx, payload, known)
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
    // Money for a collection that is settled (another payment of it won, or Medusa replaced it) goes back.
    if (applied.kind === "not_payable") return giveBackLateMoney(ctx, tx, "settled_collection", orderId)
    return `ignored:collection_${applied.kind}`
  }
  // PURCHASE and PAYMENT (alternative methods) take the money in one step: Medusa records it captured.
  const action = tx.transaction_type === "AUTHORIZE" ? PaymentActions.AUTHORIZED : PaymentActions.SUCCESSFUL
  await processPaymentWorkflow(ctx.container).run({
    input: { action, data: { session_id: session.id, amount: medusaAmountOf(tx.amount, tx.currency, { total: session.raw_amount ?? session.amount, done: 0 }) } },
  })
  return `applied:${action}`
}

/**
 * The checkout recorded this very transaction itself (a Direct API authorize is answered at once): the session
 * data names it for this attempt, the collection is a cart's, Medusa made the session's payment (captured, when
 * the gateway took the money in one step) and the order it paid is placed and not canceled. Nothing in the event
 * can change that, so the gateway is not read again and processPaymentWorkflow is not run (it would find the
 * payment and the order in place and only take the cart's lock). Anything else, or a failed read, goes the full way.
 */
async function recordedAtCheckout(ctx: EventContext, session: SessionView, payload: TransactionEventPayload): Promise<boolean> {
  if (session.data.transaction_id !== payload.id || session.data.reference !== payload.reference) return false
  try {
    // Only a cart's checkout: a payment of an order's collection goes the full way, whose "already applied" also
    // writes an order transaction an interrupted apply left out.
    if (!(await findCartIdForCollection(ctx.container, session.payment_collection_id))) return false
    const recorded = await recordedPaymentOfSession(ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION), session.id)
    if (!recorded || recorded.canceled || !recorded.order_status || recorded.order_status === "canceled") return false
    return recorded.captured || !isSingleStep(session.data.transaction_type as GatewayTransactionType)
  } catch (error) {
    ctx.logger.warn(`PGS: could not read the payment of session ${session.id} (${(error as Error).message}); applying the approval in full`)
    return false
  }
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
  if (retired && (!retired.terminal_id || retired.terminal_id === tx.terminal_id)) {
    // An order's session (a pay link's, a payment page's): Medusa deleted it when the order was paid another way
    // (Mark as paid) or canceled, not because a cart moved on.
    if (!retired.order_id) return giveBackLateMoney(ctx, tx, "deleted_session")
    const canceled = (await orderStatus(ctx.container, retired.order_id)) === "canceled"
    return giveBackLateMoney(ctx, tx, canceled ? "canceled_order" : "settled_collection", retired.order_id)
  }
  ctx.logger.error(
    `PGS: transaction ${tx.id} (${tx.reference}, ${tx.amount} ${tx.currency} minor units) was APPROVED but its payment session is not on record: no order will record it — refund it at the gateway`,
  )
  return "attention:approved_without_payment"
}
