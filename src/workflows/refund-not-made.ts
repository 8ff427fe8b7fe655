/**
 * Money a canceled order kept. Medusa's order cancel refunds what its payments captured (refundPaymentsWorkflow), but
 * its refund step logs a refund that failed and goes on, and the workflow then writes the order's refund transaction
 * all the same (FRAMEWORK-NOTES 68): the order is canceled and its page shows the money refunded, while the gateway
 * keeps it and only a log line says so. For each PGS payment the cancel asked to refund (a refund transaction naming
 * the payment, where Medusa's own refunds name their refund row) with no refund row to show for it:
 * - the shop admin's "Needs attention" lists what the payment still holds by Medusa's records ("Refund not made");
 * - the transaction of the refund that did not happen is removed, so the order page tells the truth again.
 * Run after the cancel (subscribers/pgs-order-canceled.ts; and by reconciliation from the refund's failure, should
 * that event be lost: reconcile/failed-refunds.ts), around a refund recorded from the gateway on the
 * canceled order (pgs-events/canceled-order-refund.ts), which brings the item down to what is left, or closes it,
 * and after Needs attention's "Remove from the order" takes a refund row off the payment, which raises an open item
 * (a closed one stays closed). All run under the lock of the payment's gateway events, so none reads what another is writing.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { IOrderModuleService, MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN, Modules } from "@medusajs/framework/utils"
import { fromMinorUnits } from "../gateway"
import { gatewaySums } from "../lib/operation-shares"
import { looseQuery } from "../lib/loose-query"
import { followUpByKey, handOverOpenItems, keysAbout, openFollowUp, openItemsOf, updateFollowUp, updateFollowUpAmount, type FollowUpRow } from "../modules/pgs/follow-ups"
import { failedRefundKey } from "../payments/refund-failed"
import { lostAnswerKey } from "../payments/lost-answers"
import { isPgsProviderId } from "../payments/session-data"
import { exactAmount, removeOrderTransactions, sumOf, type SummaryKeeper } from "./medusa-operation-rows"
import { underEventLock } from "./pgs-events/event-lock"
import { findOrderIdForCollection } from "./pgs-events/lookup"
import { sessionFields } from "../payments/stored-session-data"
import { RECONCILE } from "./reconcile/policy"

export const refundNotMadeKey = (paymentId: string) => `cancel-refund:${paymentId}`

type Amount = { id?: string; created_at?: string | Date; raw_amount?: unknown; amount?: unknown }
type PaymentRow = { id: string; provider_id: string; currency_code: string; data: { transaction_id?: string; internal?: string } | null; captures?: Amount[]; refunds?: Amount[] }
type OrderRow = { id: string; display_id: number | null; status: string; payment_collections?: Array<{ payments?: PaymentRow[] }> }

/** A canceled order's PGS payment, with what Medusa's records say it captured, refunded and the order counts. */
export type CanceledPayment = { paymentId: string; orderId: string; displayId: number | null; transactionId: string; reference: string | null; currency: string; keptMinor: number; refundNotMade: boolean; capturedMinor: number; heldMinor: number }

const sum = (rows: Amount[]) => sumOf(rows.map(exactAmount))

/** The canceled order's PGS payments (none when the order is not canceled). */
export async function canceledPayments(container: MedusaContainer, orderId: string, only?: string): Promise<CanceledPayment[]> {
  const payments = "payment_collections.payments"
  const { data } = await looseQuery(container).graph({
    entity: "order",
    fields: ["id", "display_id", "status", ...["id", "provider_id", "currency_code", "data", "captures.id", "captures.created_at", "captures.raw_amount", "refunds.id", "refunds.created_at", "refunds.raw_amount"].map((f) => `${payments}.${f}`)],
    filters: { id: orderId },
  })
  const order = data[0] as OrderRow | undefined
  if (order?.status !== "canceled") return []
  const rows = (order.payment_collections ?? []).flatMap((c) => c.payments ?? []).filter((p) => isPgsProviderId(p.provider_id) && p.data?.transaction_id && (!only || p.id === only))
  if (!rows.length) return []
  const refundTransactions = await container.resolve<IOrderModuleService>(Modules.ORDER).listOrderTransactions({ order_id: orderId, reference: "refund" }, { select: ["reference_id", "amount", "raw_amount"] })
  const named = new Set(refundTransactions.map((t) => t.reference_id))
  return rows.map((p) => {
    const { reference } = sessionFields(p.data)
    const refunds = p.refunds ?? []
    // The cancel's refund transaction names the payment; Medusa's other refunds name their refund row. Had the
    // cancel's refund been made, its row would be there at that amount with no transaction of its own. (Sums of rows
    // and transactions do not tell: Medusa gives an unfinished row a transaction at a later refund's amount.)
    const asked = MathBN.mult(sum(refundTransactions.filter((t) => t.reference_id === p.id) as Amount[]), -1)
    const made = refunds.some((r) => !!r.id && !named.has(r.id) && MathBN.eq(exactAmount(r), asked))
    // What the gateway holds of it: what it captured less what it refunded (each row sent as its share).
    const atGateway = gatewaySums(p, sessionFields(p.data))
    const keptMinor = atGateway.captured - atGateway.refunded
    // What the card authorization still holds after a capture took part of it: the gateway voids only before any
    // capture, and a final capture closes it (held-after-cancel.ts).
    const fields = sessionFields(p.data)
    const closed = Array.isArray(fields.captures) && fields.captures.some((c: { final_capture?: boolean }) => c?.final_capture)
    const authorized = fields.transaction_type === "AUTHORIZE" && Number.isInteger(fields.amount_minor) ? (fields.amount_minor as number) : 0
    const heldMinor = atGateway.captured > 0 && !closed && !fields.void ? Math.max(0, authorized - atGateway.captured) : 0
    return {
      paymentId: p.id,
      orderId: order.id,
      displayId: order.display_id,
      transactionId: p.data!.transaction_id!,
      reference: typeof reference === "string" ? reference : null,
      currency: p.currency_code.toLowerCase(),
      keptMinor,
      // A refund made leaves nothing kept by Medusa's records; kept money alone is not enough (a capture recorded later).
      refundNotMade: MathBN.gt(asked, 0) && !made && keptMinor > 0,
      capturedMinor: atGateway.captured,
      heldMinor,
    }
  })
}

const moneyOf = (p: CanceledPayment) => `${fromMinorUnits(p.keptMinor, p.currency)} ${p.currency.toUpperCase()}`

export function refundNotMadeNote(p: CanceledPayment): string {
  const order = p.displayId === null ? "The order" : `Order #${p.displayId}`
  return (
    `${order} was canceled while its payment still held ${moneyOf(p)} captured, by Medusa's records: Medusa asked the gateway to refund it, and the refund failed ` +
    `(the store's log gives the reason, on the line "Error was thrown trying to cancel payment - ${p.paymentId}"; if its answer was lost, the gateway may have made it: its dashboard shows whether it did, and a refund it made is recorded on the order when its message arrives, which brings this down or closes it). ` +
    "Refund what the gateway's dashboard shows is left: that refund is recorded on the order and brings this down, or closes it. Medusa's order page cannot refund a canceled order."
  )
}

/**
 * Lists the payment's refund not made and removes the order's transaction for it (listed first: a run that dies in
 * between is finished by the next); then brings an open item to what the payment still holds, or closes it.
 * `refundedBy`: the gateway's refund just recorded, named when the item closes. Safe to run again.
 */
export async function settleRefundNotMade(container: MedusaContainer, payment: CanceledPayment, refundedBy?: string): Promise<void> {
  const knex = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const key = refundNotMadeKey(payment.paymentId)
  if (payment.refundNotMade)
    await openFollowUp(knex, {
      key,
      kind: "refund_not_made",
      state: "needs_person",
      transaction_id: payment.transactionId,
      reference: payment.reference,
      order_id: payment.orderId,
      amount_minor: payment.keptMinor,
      currency_code: payment.currency,
      note: refundNotMadeNote(payment),
      // Looked at again by reconciliation, also once marked handled (reconcile/refunds-not-made.ts).
      next_check_at: new Date(Date.now() + RECONCILE.refundNotMadeRecheckMs),
    })
  const row = await followUpByKey(knex, key)
  if (!row) return
  if (row.state !== "done") await handOverLostRefundAnswers(knex, payment)
  // Also when the item was listed by an earlier run: one that died between removing the transaction and correcting
  // the order's current summary is finished here (the removal changes nothing the second time).
  await removeOrderTransactions(container.resolve<SummaryKeeper>(Modules.ORDER), "refund", payment.paymentId)
  if (row.state === "done") return
  if (payment.keptMinor > 0) {
    if (Number(row.amount_minor) !== payment.keptMinor) await updateFollowUpAmount(knex, row.id, payment.keptMinor, refundNotMadeNote(payment))
    return
  }
  const since = refundedBy ? `It has since been refunded at the gateway (transaction ${refundedBy}); it is recorded on the order.` : "Nothing captured is left unrefunded on the order now."
  await updateFollowUp(knex, row.id, { state: "done", resolved_at: new Date(), next_check_at: null, note: `${row.note ?? ""} ${since}`.trim() })
}

/**
 * The cancel's refund whose answer was lost is also an "Answer lost" item (payments/lost-answers.ts): one lost refund,
 * listed once, as this item, which says the gateway may have made it. The lost answer stays watched, so the gateway's
 * message still records the refund as Medusa's own call's and closes it (pgs-events/management.ts).
 */
async function handOverLostRefundAnswers(knex: Knex, payment: CanceledPayment): Promise<void> {
  await handOverOpenItems(knex, "unknown_management", await lostRefundAnswerKeys(knex, payment), 'Its order is canceled: listed once, as the order\'s "Refund not made", until the gateway says whether it made it.')
}

/** The "Answer lost" keys of the refunds asked of this payment that failed (a lost answer is one of those). */
async function lostRefundAnswerKeys(knex: Knex, payment: CanceledPayment): Promise<string[]> {
  const failed = await keysAbout(knex, "refund_failed", { order_id: payment.orderId, transaction_id: payment.transactionId })
  return failed.map((key) => lostAnswerKey(key.slice(failedRefundKey("").length)))
}

/**
 * The payment's refunds whose answer was lost and whose gateway message has not come yet (their "Answer lost" item
 * still open): the gateway may have made them, so what Medusa's records say the payment holds may be refunded already.
 */
export async function unsettledLostRefunds(knex: Knex, payment: CanceledPayment): Promise<FollowUpRow[]> {
  return openItemsOf(knex, "unknown_management", await lostRefundAnswerKeys(knex, payment))
}

/**
 * After Medusa canceled the order: each PGS payment under the lock its gateway events take. One payment's failure
 * does not keep the others from being settled; the first is thrown once all were tried.
 */
export async function settleRefundsNotMadeOfOrder(container: MedusaContainer, orderId: string): Promise<void> {
  const failures: unknown[] = []
  for (const listed of await canceledPayments(container, orderId)) {
    if (listed.refundNotMade) await settleUnderEventLock(container, listed).catch((error: unknown) => failures.push(error))
  }
  if (failures.length) throw failures[0]
}

/**
 * One canceled order's payment, read again under the lock its gateway events take, so neither reads what the other
 * is writing. Also run by reconciliation for a refund that failed (reconcile/failed-refunds.ts).
 */
export function settleUnderEventLock(container: MedusaContainer, listed: CanceledPayment): Promise<void> {
  return underEventLock(container, listed.reference ?? listed.transactionId, async () => {
    const [now] = await canceledPayments(container, listed.orderId, listed.paymentId)
    if (now) await settleRefundNotMade(container, now)
  })
}

/**
 * After a refund row was taken off a payment (Needs attention's "Remove from the order"): on a canceled order the
 * payment now holds more by Medusa's records, and its "Refund not made" item says so. Nothing for an order not canceled.
 */
export async function settleRefundNotMadeAfterRemoval(container: MedusaContainer, paymentId: string): Promise<void> {
  const [payment] = await container.resolve(Modules.PAYMENT).listPayments({ id: paymentId }, { select: ["id", "payment_collection_id"] })
  const orderId = payment ? await findOrderIdForCollection(container, payment.payment_collection_id) : null
  const [listed] = orderId ? await canceledPayments(container, orderId, paymentId) : []
  if (listed) await settleUnderEventLock(container, listed)
}
