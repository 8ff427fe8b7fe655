/**
 * "Refund not made" items looked at again each day (workflows/refund-not-made.ts sets the time): one marked handled
 * while the payment still holds money by Medusa's records (no refund recorded on the order since: a refund made in
 * the gateway's dashboard is, and closes the item) is raised again, with what it holds now; an open one is brought
 * up to date, or closed when nothing is left. The time is cleared once nothing is held.
 */
import { fromMinorUnits } from "../../gateway"
import { claimDueCheck, dueChecks, updateFollowUp, updateFollowUpAmount, type FollowUpRow } from "../../modules/pgs/follow-ups"
import { canceledPayments, refundNotMadeKey, refundNotMadeNote, settleUnderEventLock } from "../refund-not-made"
import type { CheckDeps } from "./check"
import { RECONCILE } from "./policy"

/** Returns how many were raised again. */
export async function recheckRefundsNotMade(deps: CheckDeps, now: Date): Promise<number> {
  let raised = 0
  for (const candidate of await dueChecks(deps.knex, now, RECONCILE.batch, "refund_not_made", true)) {
    const row = await claimDueCheck(deps.knex, candidate.id, now, RECONCILE.leaseMs, true)
    if (!row) continue
    try {
      if (await recheck(deps, row, now)) raised++
    } catch (error) {
      deps.logger.error(`PGS reconciliation: the refund not made ${row.key} could not be looked at again: ${(error as Error).message}`)
    }
  }
  return raised
}

async function recheck(deps: CheckDeps, row: FollowUpRow, now: Date): Promise<boolean> {
  const paymentId = row.key.slice(refundNotMadeKey("").length)
  const [payment] = row.order_id ? await canceledPayments(deps.container, row.order_id, paymentId) : []
  if (!payment || payment.keptMinor <= 0) {
    if (payment && row.state !== "done") await settleUnderEventLock(deps.container, payment) // closes it
    await updateFollowUp(deps.knex, row.id, { next_check_at: null })
    return false
  }
  const next_check_at = new Date(now.getTime() + RECONCILE.refundNotMadeRecheckMs)
  if (row.state !== "done") {
    await settleUnderEventLock(deps.container, payment)
    await updateFollowUp(deps.knex, row.id, { next_check_at })
    return false
  }
  const held = `${fromMinorUnits(payment.keptMinor, payment.currency)} ${payment.currency.toUpperCase()}`
  const again = `Raised again: it was marked handled, but no refund has been recorded on the order since, and by Medusa's records the payment still holds ${held}.`
  await updateFollowUpAmount(deps.knex, row.id, payment.keptMinor, `${refundNotMadeNote(payment)} ${again}`)
  await updateFollowUp(deps.knex, row.id, { state: "needs_person", resolved_at: null, next_check_at })
  return true
}
