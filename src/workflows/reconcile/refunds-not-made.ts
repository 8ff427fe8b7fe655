/**
 * "Refund not made" items looked at again each day (workflows/refund-not-made.ts sets the time): one marked handled
 * while the payment still holds money by Medusa's records (no refund recorded on the order since: a refund made in
 * the gateway's dashboard is, and closes the item) is raised again, with what it holds now, or, while a refund whose
 * answer was lost may have been made, with that refund and the dashboard to check first; an open one is brought
 * up to date, or closed when nothing is left. The time is cleared once nothing is held.
 */
import { fromMinorUnits } from "../../gateway"
import { claimDueCheck, dueChecks, updateFollowUp, updateFollowUpAmount, type FollowUpRow } from "../../modules/pgs/follow-ups"
import { canceledPayments, refundNotMadeKey, refundNotMadeNote, settleUnderEventLock, unsettledLostRefunds, type CanceledPayment } from "../refund-not-made"
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
  const again = raisedAgainWords(payment, await unsettledLostRefunds(deps.knex, payment))
  await updateFollowUpAmount(deps.knex, row.id, payment.keptMinor, `${refundNotMadeNote(payment)} ${again}`)
  await updateFollowUp(deps.knex, row.id, { state: "needs_person", resolved_at: null, next_check_at })
  return true
}

const money = (minor: number, currency: string) => `${fromMinorUnits(minor, currency)} ${currency.toUpperCase()}`

/**
 * Why the item is back. While a refund whose answer was lost waits for the gateway's message, the gateway may have
 * made it: what Medusa's records say the payment holds is then no amount to refund again (the customer would get it twice).
 */
function raisedAgainWords(payment: CanceledPayment, lostRefunds: FollowUpRow[]): string {
  const since = "Raised again: it was marked handled, but no refund has been recorded on the order since"
  if (!lostRefunds.length) return `${since}, and by Medusa's records the payment still holds ${money(payment.keptMinor, payment.currency)}.`
  const sent = lostRefunds.map((r) => `a refund of ${money(Number(r.amount_minor), r.currency_code ?? payment.currency)}`).join(" and ")
  return (
    `${since}. But ${sent} was sent to the gateway and its answer was lost: the gateway may have made it, and its message has not come. ` +
    "Check the gateway's dashboard first and refund only what it shows is left, or the customer may be refunded twice."
  )
}
