/**
 * A decline, cancel or expiry. Medusa's own webhook subscriber ignores these (medusa#16398), so we record them:
 * the payment session shows the failure (status error/canceled, the shopper-safe reason in data) and an order
 * waiting for this payment (pending_authorization) shows it on its payment collection.
 * Never backwards: if the gateway now says APPROVED, or Medusa already has the session authorized/captured, or
 * the event is for an older attempt, nothing changes.
 */
import { ContainerRegistrationKeys, PaymentSessionStatus } from "@medusajs/framework/utils"
import type { Transaction, TransactionEventPayload, TransactionStatus } from "../../gateway"
import type { EventContext, EventOutcome } from "./context"
import { findCartIdForCollection, findOrderIdForCollection, findPgsSession, sameMoney, sessionAndTransaction, sessionOfEvent, type SessionView } from "./lookup"
import { countGatewayDecline } from "../../payments/card-testing/guard"
import { clientAddressOf } from "../../payments/card-testing/client-record"
import { cardKey } from "../../payments/card-testing/rules"
import { whoOfCollection } from "../../payments/card-testing/who"
import { collectionStatusFor, recordPaymentFailureWorkflow } from "./record-failure"
import { APPROVED_SESSION_STATUSES, gatewayTransactionType, isFailedStatus, medusaStatusFor } from "../../payments/status-table"
import { RENEWED_LEASE_SECONDS, underLeasedLock } from "../../lib/leased-lock"

/** The session status of a failed transaction: the one status table decides, as for the shopper's completion. */
const failedStatus = (status: TransactionStatus, transactionType: string): PaymentSessionStatus | undefined =>
  isFailedStatus(status)
    ? (medusaStatusFor({ status, transactionType: gatewayTransactionType(transactionType), awaitingShopper: false }) as PaymentSessionStatus)
    : undefined

/** `eventId`: the event log's id (the guard counts each event's decline once, however often it is processed). */
export async function handleFailure(ctx: EventContext, payload: TransactionEventPayload, eventId: string): Promise<EventOutcome> {
  const found = await failureOf(ctx, payload)
  if (typeof found === "string") return found
  const { session, tx } = found
  const status = failedStatus(tx.status, tx.transaction_type)
  if (!status) return `ignored:gateway_status_${tx.status.toLowerCase()}`
  // Under the cart's lock, the one cart completion holds: a completion in flight either finishes first (then its
  // order is found and marked) or starts after (then it reads the decline itself) — never an order left awaiting.
  // Applying never moves backwards and a second run changes nothing: a lease lost meanwhile keeps its outcome.
  const cartId = await findCartIdForCollection(ctx.container, session.payment_collection_id)
  const apply = () => applyFailure(ctx, session.id, tx, status)
  try {
    if (!cartId) return await apply()
    return await underLeasedLock(ctx.container, cartId, apply, { timeout: CART_LOCK_TIMEOUT_SECONDS, expire: RENEWED_LEASE_SECONDS })
  } finally {
    // Every decline counts against its client, whether or not Medusa's session still wants it (a bot's is often
    // replaced already). After applying: the count's reads do not stand between the lookup and the write.
    if (tx.status === "DECLINED") await countDeclineOfSession(ctx, session, payload, eventId)
  }
}

/** What applying a failure reads of the transaction. */
type FailedTransaction = Pick<Transaction, "id" | "status" | "reference" | "amount" | "currency" | "transaction_type">

/** A session whose payment failed already. */
const FAILED_SESSION_STATUSES = new Set<string>([PaymentSessionStatus.ERROR, PaymentSessionStatus.CANCELED])

/**
 * The session and transaction a failure event is about. A decline for a session Medusa has not settled is taken as
 * the verified delivery tells it (its signature is the gateway's word): a card-testing run's hundreds of declines on
 * one embedded session cost no gateway call each. Anything else is read back from the gateway first (the event only
 * names the transaction): a cancel or expiry, and a decline for a session already paid, which the gateway's own
 * status then shows never moves backwards.
 */
async function failureOf(ctx: EventContext, payload: TransactionEventPayload): Promise<{ session: SessionView; tx: FailedTransaction } | EventOutcome> {
  const session = await sessionOfEvent(ctx, payload)
  if (typeof session === "string") return session
  if (payload.status !== "DECLINED" || APPROVED_SESSION_STATUSES.has(session.status)) return sessionAndTransaction(ctx, payload, session)
  const { id, reference, amount, currency, transaction_type } = payload
  return { session, tx: { id, status: "DECLINED", reference, amount, currency, transaction_type } }
}

/** The decline counts against the client that asked for the session (card-testing guard). Never throws. */
async function countDeclineOfSession(ctx: EventContext, session: SessionView, payload: TransactionEventPayload, eventId: string): Promise<void> {
  const knex = ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const deps = { ...ctx.pgs.cardTestingSettings(), logger: ctx.logger }
  try {
    const who = await whoOfCollection(ctx.container, session.payment_collection_id)
    const address = await clientAddressOf(knex, session.payment_collection_id)
    await countGatewayDecline(deps, { ...who, session: session.id, address }, cardKey(payload), eventId)
  } catch (error) {
    ctx.logger.warn(`[pgs] card-testing guard: the client of a declined session could not be read: ${(error as Error).message}`)
  }
}

/** Medusa's cart completion holds the cart lock for at most 120 s (medusa-facts: acquireLockStep ttl). */
const CART_LOCK_TIMEOUT_SECONDS = 120

async function applyFailure(
  ctx: EventContext,
  sessionId: string,
  tx: FailedTransaction,
  status: PaymentSessionStatus,
): Promise<EventOutcome> {
  const session = await findPgsSession(ctx.container, sessionId)
  if (!session) return "ignored:unknown_session"
  if (APPROVED_SESSION_STATUSES.has(session.status)) return "ignored:session_already_settled"
  if (session.data.reference !== undefined && session.data.reference !== tx.reference) return "ignored:stale_attempt"
  if (!sameMoney(session, tx)) return "ignored:amount_mismatch"
  // Failed already (an earlier decline on this session): another card declined on it (card testing on an embedded
  // session) changes nothing the shopper or a person reads, and recording it would ask the gateway about it again.
  if (FAILED_SESSION_STATUSES.has(session.status)) return "ignored:session_already_failed"

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
