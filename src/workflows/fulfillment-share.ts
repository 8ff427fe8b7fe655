/**
 * What one fulfillment captures, in minor units, by Medusa's totals (the rule in docs/partial-capture.md):
 * each fulfilled item's line-item total (after discounts, with tax) × fulfilled / ordered quantity, rounded down;
 * the order's first fulfillment also its shipping total; the fulfillment after which nothing is left unfulfilled
 * takes everything that remains, so the captures add up to exactly what was authorized.
 */
import type { BigNumberInput } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import { medusaAmountInMinorUnits } from "../lib/medusa-amount"

type Quantity = { quantity: unknown; raw_quantity?: unknown }
type Item = Quantity & { id: string; total: unknown; raw_total?: unknown }
type Fulfillment = { id: string; canceled_at?: unknown; items?: Array<Quantity & { line_item_id: string | null }> }

/** The order as Medusa's Query gives it (fields listed in capture-on-fulfillment.ts). */
export type OrderForShare = { id: string; currency_code: string; shipping_total: unknown; items?: Item[]; fulfillments?: Fulfillment[] }

/** Medusa's totals may carry a fraction of a cent (taxes): rounded as the storefront shows them. */
const minor = (value: unknown, currency: string) => medusaAmountInMinorUnits(MathBN.convert(value as BigNumberInput).toFixed(), currency)
const count = (q: Quantity) => Number(MathBN.convert((q.raw_quantity ?? q.quantity) as BigNumberInput).toFixed())

/** The minor units this fulfillment captures, and whether it is the last (nothing left unfulfilled). */
export function fulfillmentShare(order: OrderForShare, fulfillmentId: string, remaining: number): { amount: number; last: boolean } {
  const currency = order.currency_code
  const live = (order.fulfillments ?? []).filter((f) => !f.canceled_at)
  const fulfilled = new Map<string, number>()
  for (const f of live) for (const i of f.items ?? []) if (i.line_item_id) fulfilled.set(i.line_item_id, (fulfilled.get(i.line_item_id) ?? 0) + count(i))
  const last = (order.items ?? []).every((item) => (fulfilled.get(item.id) ?? 0) >= count(item))
  if (last) return { amount: remaining, last }
  const self = live.find((f) => f.id === fulfillmentId)
  let amount = 0
  for (const i of self?.items ?? []) {
    const item = (order.items ?? []).find((it) => it.id === i.line_item_id)
    if (!item || !count(item)) continue
    amount += Math.floor((minor(item.raw_total ?? item.total, currency) * count(i)) / count(item))
  }
  if (live.length === 1) amount += minor(order.shipping_total ?? 0, currency)
  return { amount: Math.min(amount, remaining), last }
}

