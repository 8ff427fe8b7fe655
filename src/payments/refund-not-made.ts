/**
 * Money a canceled order kept. Medusa's order cancel refunds what its payments captured, but its refund step logs a
 * refund that failed and goes on (FRAMEWORK-NOTES 68): the order is canceled while the gateway keeps the money, the
 * shopper is not paid back, and only a log line says so. After each cancel (subscribers/pgs-order-canceled.ts) what
 * the order's PGS payments still hold by Medusa's own records goes on the shop admin's "Needs attention" list; a
 * refund made in the gateway's dashboard is recorded on the order (workflows/pgs-events/canceled-order-refund.ts)
 * and brings the item down to what is left, or closes it.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import { fromMinorUnits, toMinorUnits } from "../gateway"
import { looseQuery } from "../lib/loose-query"
import { followUpByKey, openFollowUp, updateFollowUp, updateFollowUpAmount } from "../modules/pgs/follow-ups"
import { FOLLOW_UP_TABLE } from "../modules/pgs/models/follow-up"
import { isPgsProviderId } from "./session-data"

export const refundNotMadeKey = (paymentId: string) => `cancel-refund:${paymentId}`

type Amount = { raw_amount?: unknown; amount?: unknown }
type PaymentRow = { id: string; provider_id: string; currency_code: string; data: { transaction_id?: string; reference?: string } | null; captures?: Amount[]; refunds?: Amount[] }
type OrderRow = { id: string; display_id: number | null; status: string; payment_collections?: Array<{ payments?: PaymentRow[] }> }

/** What one PGS payment of the order captured and has not refunded, by Medusa's records, in minor units. */
export type KeptMoney = { paymentId: string; orderId: string; displayId: number | null; transactionId: string; reference: string | null; currency: string; keptMinor: number }

const sum = (rows: Amount[] | undefined) => (rows ?? []).reduce<ReturnType<typeof MathBN.convert>>((acc, r) => MathBN.add(acc, (r.raw_amount ?? r.amount ?? 0) as never), MathBN.convert(0))

/** The order's PGS payments that still hold captured money (none when the order is not canceled). */
export async function moneyKeptByCanceledOrder(container: MedusaContainer, orderId: string): Promise<KeptMoney[]> {
  const payments = "payment_collections.payments"
  const { data } = await looseQuery(container).graph({
    entity: "order",
    fields: ["id", "display_id", "status", ...["id", "provider_id", "currency_code", "data", "captures.raw_amount", "refunds.raw_amount"].map((f) => `${payments}.${f}`)],
    filters: { id: orderId },
  })
  const order = data[0] as OrderRow | undefined
  if (order?.status !== "canceled") return []
  return (order.payment_collections ?? [])
    .flatMap((c) => c.payments ?? [])
    .filter((p) => isPgsProviderId(p.provider_id) && p.data?.transaction_id)
    .map((p) => ({
      paymentId: p.id,
      orderId: order.id,
      displayId: order.display_id,
      transactionId: p.data!.transaction_id!,
      reference: p.data!.reference ?? null,
      currency: p.currency_code.toLowerCase(),
      keptMinor: Number(toMinorUnits(MathBN.sub(sum(p.captures), sum(p.refunds)).toString(), p.currency_code)),
    }))
    .filter((p) => p.keptMinor > 0)
}

const moneyOf = (p: KeptMoney) => `${fromMinorUnits(p.keptMinor, p.currency)} ${p.currency.toUpperCase()}`

function noteOf(p: KeptMoney): string {
  const order = p.displayId === null ? "The order" : `Order #${p.displayId}`
  return (
    `${order} was canceled while ${moneyOf(p)} captured for it was not refunded: Medusa asked the gateway for the refund, and it did not go through ` +
    `(the store's log gives the reason, on the line "Error was thrown trying to cancel payment - ${p.paymentId}"). ` +
    "Refund it in the gateway's dashboard: that refund is recorded on the order and closes this. Medusa's order page cannot refund a canceled order."
  )
}

/** A lost answer of the refund is already listed, with what to do (payments/lost-answers.ts): not listed twice. */
async function lostAnswerListed(knex: Knex, transactionId: string): Promise<boolean> {
  const row = await knex(FOLLOW_UP_TABLE).where({ kind: "unknown_management", transaction_id: transactionId, deleted_at: null }).whereNot({ state: "done" }).first("id")
  return !!row
}

/** Lists what each of the canceled order's PGS payments kept. Safe to run twice (one item per payment). */
export async function listRefundsNotMade(container: MedusaContainer, orderId: string): Promise<number> {
  const knex = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  let listed = 0
  for (const kept of await moneyKeptByCanceledOrder(container, orderId)) {
    if (await lostAnswerListed(knex, kept.transactionId)) continue
    const { opened } = await openFollowUp(knex, {
      key: refundNotMadeKey(kept.paymentId),
      kind: "refund_not_made",
      state: "needs_person",
      transaction_id: kept.transactionId,
      reference: kept.reference,
      order_id: kept.orderId,
      amount_minor: kept.keptMinor,
      currency_code: kept.currency,
      note: noteOf(kept),
    })
    if (opened) listed++
  }
  return listed
}

/** After a refund of the payment is recorded on its canceled order: the item says what is left, or closes. */
export async function settleRefundNotMade(container: MedusaContainer, orderId: string, paymentId: string, refundTransactionId: string): Promise<void> {
  const knex = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const row = await followUpByKey(knex, refundNotMadeKey(paymentId))
  if (!row || row.state === "done") return
  const kept = (await moneyKeptByCanceledOrder(container, orderId)).find((p) => p.paymentId === paymentId)
  if (kept) return void (await updateFollowUpAmount(knex, row.id, kept.keptMinor, noteOf(kept)))
  const note = `${row.note ?? ""} It has since been refunded at the gateway (transaction ${refundTransactionId}); it is recorded on the order.`.trim()
  await updateFollowUp(knex, row.id, { state: "done", resolved_at: new Date(), note })
}
