/**
 * Refunds that failed or lost their answer, written down by the provider before Medusa got the error
 * (payments/refund-failed.ts). An order cancel asked for one if its order is canceled now: the "Refund not made"
 * listing runs for its payment, as after the order.canceled event (safe to run twice), so an event lost with its
 * process, or a subscriber run that failed, still lists it. An order still not canceled a while after was a person's
 * refund: Medusa showed them the error. A listing that keeps failing is handed to a person after an hour of tries,
 * and tried again hourly: closed once it works, raised again (also after a person marked it handled) while it fails.
 */
import { shortened } from "../../lib/shortened"
import { claimDueCheck, dueChecks, followUpByKey, updateFollowUp, type FollowUpRow } from "../../modules/pgs/follow-ups"
import { FAILED_REFUND_TRIES_BEFORE_TELLING } from "../../modules/pgs/models/follow-up"
import { canceledPayments, refundNotMadeKey, settleUnderEventLock } from "../refund-not-made"
import type { CheckDeps } from "./check"
import { RECONCILE } from "./policy"

/** Looks at the failed refunds that are due; returns how many were an order cancel's refund that did not happen. */
export async function checkFailedRefunds(deps: CheckDeps, now: Date): Promise<number> {
  let ofCancels = 0
  const started = Date.now()
  // Its own budget: the transaction checks before it may have used the run's.
  while (Date.now() - started < RECONCILE.failedRefundsBudgetMs) {
    const due = await dueChecks(deps.knex, now, RECONCILE.batch, "refund_failed", true)
    let claimed = 0
    for (const candidate of due) {
      // Claimed first, so two workers do not both run it; one that dies leaves it to the next run after the lease,
      // counted from the clock when the run is late (so the next run does not find it due at once).
      const lease = RECONCILE.leaseMs + Math.max(0, Date.now() - now.getTime())
      const row = await claimDueCheck(deps.knex, candidate.id, now, lease, true)
      if (!row) continue
      claimed++
      try {
        if (await settleFailedRefund(deps, row, now)) ofCancels++
      } catch (error) {
        await tellAfterTries(deps, row, error as Error, now).catch((cause: Error) =>
          deps.logger.error(`PGS reconciliation: the failed refund ${row.key} could not be updated: ${cause.message}`),
        )
      }
    }
    // A batch another runner took entirely, or the last one: done (a claimed row is not due again in this run).
    if (!claimed || due.length < RECONCILE.batch) break
  }
  return ofCancels
}

async function tellAfterTries(deps: CheckDeps, row: FollowUpRow, error: Error, now: Date): Promise<void> {
  deps.logger.error(`PGS reconciliation: the failed refund ${row.key} could not be looked at again: ${error.message}`)
  const checks = row.checks + 1
  if (checks < FAILED_REFUND_TRIES_BEFORE_TELLING) return updateFollowUp(deps.knex, row.id, { checks })
  // A person's already (told once, or marked handled since): tried again on its schedule, and raised again while the
  // listing still fails, its note as it was.
  const next_check_at = new Date(now.getTime() + RECONCILE.failedRefundRetryMs)
  if (row.state !== "watching") return updateFollowUp(deps.knex, row.id, { checks, next_check_at, state: "needs_person", resolved_at: null })
  const reason = shortened(error.message, 200)
  const told =
    `Reconciliation could not list what its order still owes the customer, should an order cancel have asked for this refund (the store's log has the reason: "${reason}"). ` +
    "If the order is canceled, its page may still count this refund as made: refund in the gateway's dashboard what it shows is left (that refund is recorded on the order). Then, or if the order is not canceled, mark this handled."
  await updateFollowUp(deps.knex, row.id, { checks, next_check_at, state: "needs_person", note: `${row.note ?? ""} ${told}`.trim() })
}

/** Closes the row once it is known whether an order cancel asked for the refund; true when one did and it failed. */
async function settleFailedRefund(deps: CheckDeps, row: FollowUpRow, now: Date): Promise<boolean> {
  const payments = row.order_id ? await canceledPayments(deps.container, row.order_id) : []
  const payment = payments.find((p) => p.transactionId === row.transaction_id)
  // Closed with no time left: nothing tries it again.
  const close = (sentence: string) => updateFollowUp(deps.knex, row.id, { state: "done", resolved_at: now, next_check_at: null, note: `${row.note ?? ""} ${sentence}`.trim() })
  if (!payment) {
    // Not canceled (yet): looked at again after the lease, until it is clearly a person's refund.
    if (now.getTime() - new Date(row.created_at).getTime() < RECONCILE.failedRefundSettledAfterMs) return false
    await close(
      payments.length
        ? "Its order is canceled, but this payment is no longer among its payments by Medusa's records: nothing to list."
        : "Its order was not canceled: Medusa showed the error where the refund was asked.",
    )
    return false
  }
  // This payment only: another payment of the order has a row of its own, and its failure is not this one's.
  await settleUnderEventLock(deps.container, payment)
  // Listed now, or already after the order.canceled event (which then took the cancel's refund off the order).
  const item = await followUpByKey(deps.knex, refundNotMadeKey(payment.paymentId))
  if (!item) {
    await close("Its order is canceled, and by Medusa's records nothing the cancel asked to refund is missing.")
    return false
  }
  await close(
    item.state === "needs_person"
      ? 'Medusa canceled its order all the same: what the payment still holds is on Needs attention as "Refund not made".'
      : 'Medusa canceled its order all the same; it was listed as "Refund not made", and that item is closed.',
  )
  return true
}
