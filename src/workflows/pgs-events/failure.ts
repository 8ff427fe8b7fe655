/**
 * A decline, cancel or expiry. Medusa's own webhook subscriber ignores these (medusa#16398), so we record them:
 * the payment session shows the failure (status error/canceled, the shopper-safe reason in data) and an order
 * waiting for this payment (pending_authorization) shows it on its payment collection.
 * Never backwards: if the gateway now says APPROVED, or Medusa already has the session authorized/captured, or
 * the event is for an older attempt, nothing changes.
 */
import { Modules, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { Transaction, TransactionEventPayload, TransactionStatus } from "../../gateway"
import type { EventContext, EventOutcome } from "./context"
import { findCartIdForCollection, findOrderIdForCollection, findPgsSession, sameMoney, sessionAndTransaction } from "./lookup"
import { collectionStatusFor, recordPaymentFailureWorkflow } from "./record-failure"
import { APPROVED_SESSION_STATUSES, gatewayTransactionType, isFailedStatus, medusaStatusFor } from "../../payments/status-table"

/** The session status of a failed transaction: the one status table decides, as for the shopper's completion. */
const failedStatus = (status: TransactionStatus, transactionType: string): PaymentSessionStatus | undefined =>
  isFailedStatus(status)
    ? (medusaStatusFor({ status, transactionType: gatewayTransactionType(transactionType), awaitingShopper: false }) as PaymentSessionStatus)
    : undefined

export async function handleFailure(ctx: EventContext, payload: TransactionEventPayload): Promise<EventOutcome> {
  const found = await sessionAndTransaction(ctx, payload)
  if (typeof found === "string") return found
  const { session, tx } = found
  const status = failedStatus(tx.status, tx.transaction_type)
  if (!status) return `ignored:gateway_status_${tx.status.toLowerCase()}`
  // Under the cart's lock, the one cart completion holds: a completion in flight either finishes first (then its
  // order is found and marked) or starts after (then it reads the decline itself) — never an order left awaiting.
  const cartId = await findCartIdForCollection(ctx.container, session.payment_collection_id)
  const apply = () => applyFailure(ctx, session.id, tx, status)
  if (!cartId) return apply()
  return ctx.container.resolve(Modules.LOCKING).execute(cartId, apply, { timeout: CART_LOCK_TIMEOUT_SECONDS })
}

/** Medusa's cart completion holds the cart lock for at most 120 s (medusa-facts: acquireLockStep ttl). */
const CART_LOCK_TIMEOUT_SECONDS = 120

async function applyFailure(
  ctx: EventContext,
  sessionId: string,
  tx: Transaction,
  status: PaymentSessionStatus,
): Promise<EventOutcome> {
  const session = await findPgsSession(ctx.container, sessionId)
  if (!session) return "ignored:unknown_session"
  if (APPROVED_SESSION_STATUSES.has(session.status)) return "ignored:session_already_settled"
  if (session.data.reference !== undefined && session.data.reference !== tx.reference) return "ignored:stale_attempt"
  if (!sameMoney(session, tx)) return "ignored:amount_mismatch"

  const orderId = await findOrderIdForCollection(ctx.container, session.payment_collection_id)
  const awaiting = !!orderId && session.status === PaymentSessionStatus.PENDING_AUTHORIZATION
  const collectionStatus = collectionStatusFor(status)
  // Two steps (the order's payment, then the session), the first undone if the second fails: see record-failure.ts.
  // An Embedded Fields session learns its transaction on the way, as if the shopper had come back.
  await recordPaymentFailureWorkflow(ctx.container).run({
    input: { session, transactionId: tx.id, status, awaitingOrder: awaiting ? { collectionId: session.payment_collection_id, status: collectionStatus } : null },
  })
  return awaiting ? `applied:${status}_order_${collectionStatus}` : `applied:session_${status}`
}
