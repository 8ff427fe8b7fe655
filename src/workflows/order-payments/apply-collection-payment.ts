/**
 * Applies a payment of a collection without a cart (an order's: money after checkout) exactly once, whichever
 * comes first: the store route the widget calls after the shopper paid, or the gateway's approval webhook.
 *
 * Medusa's processPaymentWorkflow authorizes such a session but takes its lock only for carts, and a second
 * SUCCESSFUL would capture again. So here: the locking module's lock keyed by the collection id (one apply at a
 * time, across processes with the Redis provider), inside it an "already applied" check (the session has a
 * Payment), and only then the workflow. The action is always AUTHORIZED: Medusa's authorizePaymentSession asks the
 * provider, and a single-step transaction (PURCHASE, PAYMENT) comes back `captured`, which Medusa records as a
 * captured payment in the same call ("Collection payments authorize, never SUCCESSFUL" in FRAMEWORK-NOTES). That
 * path adds no order transaction for the capture (cart completion and capturePaymentWorkflow do), so the order's
 * paid total would not move: order-transactions.ts adds it, once.
 */
import { processPaymentWorkflow } from "@medusajs/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PaymentActions } from "@medusajs/framework/utils"
import { findOrderIdForCollection, findPaymentForSession, findPgsSession } from "../pgs-events/lookup"
import { recordCapturesOnOrder } from "./order-transactions"
import { findPayableCollection, whyNotPayable, type NotPayableReason } from "../../payments/order-collection"
import { MONEY_LEASE_SECONDS, underLeasedLock } from "../../lib/leased-lock"

export type ApplyOutcome =
  | { kind: "applied" | "already_applied"; payment_id: string; captured: boolean }
  /** The provider decides later (pending_authorization): the webhook applies it. */
  | { kind: "pending" }
  /** The shopper still has a step to take (Direct API 3-D Secure); the session's next_action says which. */
  | { kind: "requires_more" }
  /** Not approved (declined, canceled, expired, or nothing paid yet); the session's data says why. */
  | { kind: "not_approved"; session_status: string }
  | { kind: "unknown_session" }
  /** Nothing more may be recorded on this collection (paid by another session, canceled, its order canceled). */
  | { kind: "not_payable"; reason: NotPayableReason }

/** processPaymentWorkflow's own cart lock waits 30 s; ours likewise. */
const LOCK_TIMEOUT_SECONDS = 30

/**
 * Run again, the apply finds the session's payment and answers already_applied (order transactions only where
 * missing), so a lease lost while it ran (lib/leased-lock.ts) keeps its outcome: the payment was recorded. Not guarded:
 * a second apply that took the lock in that window, between this one's check and its workflow (the payment module
 * does not refuse a second payment for one session): hence the long lease, MONEY_LEASE_SECONDS.
 */
export async function applyCollectionPayment(container: MedusaContainer, input: { sessionId: string; collectionId: string }): Promise<ApplyOutcome> {
  return underLeasedLock(container, input.collectionId, () => applyOnce(container, input), { timeout: LOCK_TIMEOUT_SECONDS, expire: MONEY_LEASE_SECONDS })
}

async function applyOnce(container: MedusaContainer, { sessionId, collectionId }: { sessionId: string; collectionId: string }): Promise<ApplyOutcome> {
  const session = await findPgsSession(container, sessionId)
  if (!session || session.payment_collection_id !== collectionId) return { kind: "unknown_session" }
  const existing = await findPaymentForSession(container, sessionId)
  if (existing) {
    // Also repairs an apply that stopped between recording the payment and the order's transaction.
    await recordCaptures(container, collectionId, existing.id)
    return { kind: "already_applied", payment_id: existing.id, captured: !!existing.captured_at }
  }
  // Checked inside the lock: a second session paid at the same time must not be recorded on a settled collection.
  const reason = whyNotPayable(await findPayableCollection(container, collectionId))
  if (reason) return { kind: "not_payable", reason }

  const { errors } = await processPaymentWorkflow(container).run({
    // The amount is read only by the capture branches, which an AUTHORIZED action of a cart-less collection skips.
    input: { action: PaymentActions.AUTHORIZED, data: { session_id: sessionId, amount: session.amount as number } },
    throwOnError: false,
  })
  const payment = await findPaymentForSession(container, sessionId)
  if (payment) {
    await recordCaptures(container, collectionId, payment.id)
    return { kind: "applied", payment_id: payment.id, captured: !!payment.captured_at }
  }
  const after = await findPgsSession(container, sessionId)
  const status = after?.status ?? "unknown"
  if (status === "pending_authorization") return { kind: "pending" }
  if (status === "requires_more") return { kind: "requires_more" }
  if (errors.length && status !== "error" && status !== "canceled" && status !== "pending") {
    // Neither applied nor a known refusal: let the caller's error handling see the workflow's own reason.
    const first = errors[0]?.error as { message?: string } | undefined
    throw new Error(`Applying payment session ${sessionId} failed: ${first?.message ?? "unknown error"}`)
  }
  return { kind: "not_approved", session_status: status }
}

async function recordCaptures(container: MedusaContainer, collectionId: string, paymentId: string) {
  const orderId = await findOrderIdForCollection(container, collectionId)
  if (orderId) await recordCapturesOnOrder(container, orderId, paymentId)
}
