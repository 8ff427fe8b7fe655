/**
 * Refunds that failed, written down by the provider before Medusa got the error (payments/refund-failed.ts). An order
 * cancel asked for one if its order is canceled now: the "Refund not made" listing runs for that order, as after its
 * order.canceled event (safe to run twice), so an event lost with its process, or a subscriber run that failed, still
 * lists it. An order still not canceled a while after was a person's refund: Medusa showed them the error.
 */
import { claimDueCheck, dueChecks, followUpByKey, updateFollowUp, type FollowUpRow } from "../../modules/pgs/follow-ups"
import { canceledPayments, refundNotMadeKey, settleRefundsNotMadeOfOrder } from "../refund-not-made"
import type { CheckDeps } from "./check"
import { RECONCILE } from "./policy"

/** Looks at the failed refunds that are due; returns how many turned out to be an order cancel's. */
export async function checkFailedRefunds(deps: CheckDeps, now: Date): Promise<number> {
  let ofCancels = 0
  for (const due of await dueChecks(deps.knex, now, RECONCILE.batch, "refund_failed")) {
    // Claimed first, so two workers do not both run it; one that dies leaves it to the next run after the lease.
    const row = await claimDueCheck(deps.knex, due.id, now, RECONCILE.leaseMs)
    if (!row) continue
    try {
      if (await settleFailedRefund(deps, row, now)) ofCancels++
    } catch (error) {
      deps.logger.error(`PGS reconciliation: the failed refund ${row.key} could not be looked at again: ${(error as Error).message}`)
    }
  }
  return ofCancels
}

async function settleFailedRefund(deps: CheckDeps, row: FollowUpRow, now: Date): Promise<boolean> {
  const orderId = row.order_id
  const canceled = orderId ? (await canceledPayments(deps.container, orderId)).find((p) => p.transactionId === row.transaction_id) : undefined
  if (!canceled) {
    // Not canceled (yet): looked at again after the lease, until it is clearly a person's refund.
    if (now.getTime() - new Date(row.created_at).getTime() < RECONCILE.failedRefundSettledAfterMs) return false
    await updateFollowUp(deps.knex, row.id, { state: "done", resolved_at: now, note: `${row.note ?? ""} Its order was not canceled: Medusa showed the error where the refund was asked.`.trim() })
    return false
  }
  await settleRefundsNotMadeOfOrder(deps.container, canceled.orderId)
  const listed = await followUpByKey(deps.knex, refundNotMadeKey(canceled.paymentId))
  const outcome = listed
    ? 'Medusa canceled its order all the same: the money the payment still holds is on Needs attention as "Refund not made".'
    : "Medusa canceled its order all the same; by Medusa's records nothing captured is left unrefunded."
  await updateFollowUp(deps.knex, row.id, { state: "done", resolved_at: now, note: `${row.note ?? ""} ${outcome}`.trim() })
  return true
}
