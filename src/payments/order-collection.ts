/**
 * A payment collection as a payer without a cart sees it: what Medusa asks for (an order edit, exchange, claim or
 * draft order gave the order a new collection, medusa-facts §10), for which order, and what is still owed.
 * Read through Medusa's query graph; money read from Medusa's raw (exact) amounts and kept in minor units, never
 * re-derived with floats. Used by the widget's payment-collection routes, the hosted pay link and the admin's
 * saved-card charge.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { fromMinorUnits, type MoneyInput } from "../gateway/money"
import { medusaAmountInMinorUnits } from "../lib/medusa-amount"
import { looseQuery } from "../lib/loose-query"

export type OrderAddress = {
  first_name: string | null
  last_name: string | null
  phone: string | null
  address_1: string | null
  city: string | null
  postal_code: string | null
  country_code: string | null
}

export type CollectionOrder = {
  id: string
  display_id: number | null
  status: string
  email: string | null
  customer_id: string | null
  region_id: string | null
  currency_code: string
  billing_address: OrderAddress | null
  shipping_address: OrderAddress | null
}

export type CollectionSession = { id: string; provider_id: string; status: string }
export type CollectionPayment = { id: string; payment_session_id: string | null; provider_id: string; captured_at: unknown; canceled_at: unknown }

export type PayableCollectionView = {
  id: string
  /** Medusa's collection status: not_paid, awaiting, authorized, partially_authorized, completed, canceled, failed. */
  status: string
  currency_code: string
  /** What Medusa asks for, in minor units and as an exact major-unit decimal string. */
  amount_minor: number
  amount: string
  /** Authorized so far (captured money was authorized first, so this includes it). */
  paid_minor: number
  /** amount − paid, never below 0. */
  owed_minor: number
  owed: string
  /** A cart's collection: paid by completing the cart, never through these routes. */
  cart_bound: boolean
  order: CollectionOrder | null
  payment_sessions: CollectionSession[]
  payments: CollectionPayment[]
}

export type NotPayableReason = "not_found" | "cart_bound" | "paid" | "collection_canceled" | "order_canceled" | "no_order"

/** Medusa's payment collection ids ("pay_col_" + a ULID); anything else is not looked up at all. */
export const PAYMENT_COLLECTION_ID = /^pay_col_[0-9A-Za-z]{1,64}$/

const ADDRESS = ["first_name", "last_name", "phone", "address_1", "city", "postal_code", "country_code"] as const

const FIELDS = [
  "id",
  "status",
  "currency_code",
  "amount",
  "raw_amount",
  "authorized_amount",
  "raw_authorized_amount",
  "captured_amount",
  "raw_captured_amount",
  "payment_sessions.id",
  "payment_sessions.provider_id",
  "payment_sessions.status",
  "payments.id",
  "payments.payment_session_id",
  "payments.provider_id",
  "payments.captured_at",
  "payments.canceled_at",
  "cart.id",
  "order.id",
  "order.display_id",
  "order.status",
  "order.email",
  "order.customer_id",
  "order.region_id",
  "order.currency_code",
  ...ADDRESS.map((f) => `order.billing_address.${f}`),
  ...ADDRESS.map((f) => `order.shipping_address.${f}`),
]

type Row = {
  id: string
  status: string
  currency_code: string
  amount: MoneyInput
  raw_amount?: MoneyInput | null
  authorized_amount?: MoneyInput | null
  raw_authorized_amount?: MoneyInput | null
  captured_amount?: MoneyInput | null
  raw_captured_amount?: MoneyInput | null
  payment_sessions?: CollectionSession[] | null
  payments?: CollectionPayment[] | null
  cart?: { id: string } | null
  order?: (Omit<CollectionOrder, "billing_address" | "shipping_address"> & { billing_address?: OrderAddress | null; shipping_address?: OrderAddress | null }) | null
}

/** Medusa's exact amount (raw first) in minor units, rounded as a storefront shows it (lib/medusa-amount.ts); a missing amount is 0. */
function minorOf(raw: MoneyInput | null | undefined, plain: MoneyInput | null | undefined, currency: string): number {
  const value = raw ?? plain
  return value === null || value === undefined ? 0 : medusaAmountInMinorUnits(value, currency)
}

/** The collection, or null when the id is malformed or no such collection exists. */
export async function findPayableCollection(container: MedusaContainer, collectionId: string): Promise<PayableCollectionView | null> {
  if (typeof collectionId !== "string" || !PAYMENT_COLLECTION_ID.test(collectionId)) return null
  const { data } = await looseQuery(container).graph({ entity: "payment_collection", fields: FIELDS, filters: { id: collectionId } })
  const row = data[0] as Row | undefined
  if (!row) return null
  const currency = row.currency_code
  const amountMinor = minorOf(row.raw_amount, row.amount, currency)
  const authorized = minorOf(row.raw_authorized_amount, row.authorized_amount, currency)
  const captured = minorOf(row.raw_captured_amount, row.captured_amount, currency)
  const paid = Math.max(authorized, captured)
  const owed = Math.max(amountMinor - paid, 0)
  const order = row.order
  return {
    id: row.id,
    status: row.status,
    currency_code: currency,
    amount_minor: amountMinor,
    amount: fromMinorUnits(amountMinor, currency),
    paid_minor: paid,
    owed_minor: owed,
    owed: fromMinorUnits(owed, currency),
    cart_bound: !!row.cart?.id,
    order: order
      ? {
          id: order.id,
          display_id: order.display_id ?? null,
          status: order.status,
          email: order.email ?? null,
          customer_id: order.customer_id ?? null,
          region_id: order.region_id ?? null,
          currency_code: order.currency_code,
          billing_address: order.billing_address ?? null,
          shipping_address: order.shipping_address ?? null,
        }
      : null,
    payment_sessions: row.payment_sessions ?? [],
    payments: row.payments ?? [],
  }
}

/** Why this collection cannot be paid by a payer without a cart, or null when it can. */
export function whyNotPayable(view: PayableCollectionView | null): NotPayableReason | null {
  if (!view) return "not_found"
  if (view.cart_bound) return "cart_bound"
  if (view.status === "canceled") return "collection_canceled"
  if (!view.order) return "no_order"
  if (view.order.status === "canceled") return "order_canceled"
  if (view.status === "completed" || view.owed_minor <= 0) return "paid"
  return null
}

/** Plain words for each reason, for a 4xx body or a page a payer sees. */
export const NOT_PAYABLE_MESSAGES: Record<NotPayableReason, string> = {
  not_found: "This payment request was not found.",
  cart_bound: "This payment belongs to a checkout in progress; pay it from the cart.",
  paid: "Nothing is owed on this payment request: it has been paid.",
  collection_canceled: "This payment request was replaced or canceled; ask the shop for a new link.",
  order_canceled: "The order of this payment request was canceled.",
  no_order: "This payment request is not for an order.",
}
