/**
 * Capture on fulfillment (option captureOnFulfillment, or a terminal's setting; off by default): when Medusa creates a fulfillment of an
 * order paid by a PGS authorization, capture what the fulfilled items cost, through Medusa's capturePaymentWorkflow
 * (so Medusa's capture row, events and the gateway stay one story; the provider sends it to the gateway).
 *
 * The rule (docs/partial-capture.md):
 * - an item's share is Medusa's line-item total (after discounts, with tax) × fulfilled quantity / ordered
 *   quantity, rounded down to the currency's minor unit;
 * - the order's first fulfillment also carries Medusa's shipping total (shipping is paid when the first parcel
 *   leaves; a proportional split of shipping has no meaning Medusa's totals define);
 * - the fulfillment that leaves nothing unfulfilled captures whatever remains of the payment, so the captures add up
 *   to exactly what was authorized, and the provider flags it as the final capture.
 *
 * Once per fulfillment: a follow-up row keyed by the fulfillment id is claimed first (unique index), so a second
 * delivery of the event, or a second process, captures nothing. A capture that fails stays on "Needs attention"
 * (state needs_person) and is never retried automatically: a retry after an unknown outcome could capture twice.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MathBN } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { capturePaymentWorkflow } from "@medusajs/core-flows"
import { fromMinorUnits } from "../gateway"
import { fulfillmentShare, type OrderForShare } from "./fulfillment-share"
import { exactAmount, sumOf } from "./medusa-operation-rows"
import { looseQuery } from "../lib/loose-query"
import { medusaAmountInMinorUnits, medusaAmountOf } from "../lib/medusa-amount"
import { gatewaySums } from "../lib/operation-shares"
import { PGS_MODULE } from "../modules/pgs"
import { openFollowUp, updateFollowUp } from "../modules/pgs/follow-ups"
import type PgsModuleService from "../modules/pgs/service"
import { terminalCapturesOnFulfillment } from "../modules/pgs/queries"
import { sessionFields } from "../payments/stored-session-data"

/** created_by of these captures (the order widget names it "the plugin, on fulfillment …"). */
export const FULFILLMENT_CAPTURE_BY = "pgs-fulfillment:"

type Amount = { id?: string; created_at?: string | Date; raw_amount?: unknown; amount?: unknown }
type Payment = Amount & { id: string; provider_id: string; currency_code: string; data?: Record<string, unknown> | null; captured_at?: unknown; canceled_at?: unknown; captures?: Amount[] }
type Order = OrderForShare & { payment_collections?: Array<{ payments?: Payment[] }> }

export type FulfillmentCaptureResult =
  | { done: "captured"; amount_minor: number; final: boolean }
  | { done: "skipped"; why: string }
  | { done: "failed"; error: string }

async function orderOf(container: MedusaContainer, orderId: string): Promise<Order | null> {
  const { data } = await looseQuery(container).graph({
    entity: "order",
    fields: [
      "id", "currency_code", "shipping_total",
      "items.id", "items.quantity", "items.total",
      "fulfillments.id", "fulfillments.canceled_at", "fulfillments.items.line_item_id", "fulfillments.items.quantity",
      "payment_collections.payments.id", "payment_collections.payments.provider_id", "payment_collections.payments.currency_code", "payment_collections.payments.amount", "payment_collections.payments.raw_amount",
      "payment_collections.payments.captured_at", "payment_collections.payments.data", "payment_collections.payments.canceled_at", "payment_collections.payments.captures.id", "payment_collections.payments.captures.created_at", "payment_collections.payments.captures.amount", "payment_collections.payments.captures.raw_amount",
    ],
    filters: { id: orderId },
  })
  return (data[0] as Order | undefined) ?? null
}

export async function captureOnFulfillment(container: MedusaContainer, input: { order_id: string; fulfillment_id: string }): Promise<FulfillmentCaptureResult> {
  const pgs = container.resolve<PgsModuleService>(PGS_MODULE)
  const knex = container.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)
  const order = await orderOf(container, input.order_id)
  const payment = order?.payment_collections?.flatMap((c) => c.payments ?? []).find((p) => p.provider_id.startsWith("pp_pgs") && !p.canceled_at)
  if (!order || !payment) return { done: "skipped", why: "no PGS payment on the order" }
  // On for every payment (the option), or for payments made on a terminal whose setting switches it on.
  const { terminal_id: recordedTerminal } = sessionFields(payment.data)
  const terminalId = typeof recordedTerminal === "string" ? recordedTerminal : null
  const on = pgs.followUpSettings().captureOnFulfillment || (terminalId !== null && (await terminalCapturesOnFulfillment(knex, terminalId)))
  if (!on) return { done: "skipped", why: "capture on fulfillment is off" }
  if (payment.captured_at) return { done: "skipped", why: "the payment is already captured" }
  const currency = order.currency_code
  // Medusa's exact amounts (a taxed total carries a fraction of a cent); what the gateway has left, in its minor units.
  const total = MathBN.convert(exactAmount(payment)).toFixed()
  const remaining = medusaAmountInMinorUnits(total, currency) - gatewaySums(payment, sessionFields(payment.data)).captured
  const whole = { total, done: MathBN.convert(sumOf((payment.captures ?? []).map(exactAmount))).toFixed(), restMinor: remaining }
  const { amount, last } = fulfillmentShare(order, input.fulfillment_id, remaining)
  if (amount <= 0) return { done: "skipped", why: "nothing to capture for this fulfillment" }

  const claim = await openFollowUp(knex, {
    key: `fulfillment-capture:${input.fulfillment_id}`,
    kind: "fulfillment_capture",
    order_id: order.id,
    amount_minor: amount,
    currency_code: currency,
    note: `Capturing ${fromMinorUnits(amount, currency)} ${currency.toUpperCase()} for fulfillment ${input.fulfillment_id}.`,
  })
  if (!claim.opened) return { done: "skipped", why: "this fulfillment was already handled" }

  try {
    await capturePaymentWorkflow(container).run({
      // The last capture takes Medusa's exact remainder: Medusa marks the payment captured only when nothing is left.
      input: { payment_id: payment.id, amount: medusaAmountOf(amount, currency, whole), captured_by: `${FULFILLMENT_CAPTURE_BY}${input.fulfillment_id}` },
    })
    const note = `Captured ${fromMinorUnits(amount, currency)} ${currency.toUpperCase()} when fulfillment ${input.fulfillment_id} was created${last ? " (the last: the final capture)" : ""}.`
    await updateFollowUp(knex, claim.row.id, { state: "done", resolved_at: new Date(), note })
    return { done: "captured", amount_minor: amount, final: last }
  } catch (error) {
    const message = (error as Error).message
    const note = `The capture of ${fromMinorUnits(amount, currency)} ${currency.toUpperCase()} for fulfillment ${input.fulfillment_id} failed: ${message} It is not retried automatically (a retry could capture twice): check the payment at the gateway, then capture from the order page.`
    await updateFollowUp(knex, claim.row.id, { state: "needs_person", note })
    container.resolve(ContainerRegistrationKeys.LOGGER).warn(`[pgs] capture on fulfillment ${input.fulfillment_id} failed: ${message}`)
    return { done: "failed", error: message }
  }
}
