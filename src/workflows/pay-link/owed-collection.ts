/**
 * What a pay link may charge: an order's payment collection that is not bound to a cart (a cart pays at checkout),
 * not paid, not canceled, whose order is not canceled. Minimal reader of our own (the foundation branch's reader
 * of payment collections was not there when this was written); it reads only Medusa's records through Query.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import { looseQuery } from "../../lib/loose-query"
import { findCartIdForCollection, findOrderIdForCollection, orderStatus } from "../pgs-events/lookup"

export type OwedSession = { id: string; provider_id: string; status: string; amount: unknown; data: Record<string, unknown> | null }

export type OwedCollection = {
  id: string
  /** Major units as Medusa stores them (BigNumber value or string): what is owed. */
  amount: unknown
  currency_code: string
  status: string
  order_id: string
  sessions: OwedSession[]
  /** Payments made on it and not canceled (a pay link never adds one next to them). */
  live_payments: number
}

/** Why a collection cannot be paid through a link now; "unknown" covers every id that is not an order's collection. */
export type NotPayable = "unknown" | "paid" | "canceled"

const PAID_STATUSES = new Set(["authorized", "partially_authorized", "completed", "partially_captured", "partially_refunded", "refunded"])

type Row = {
  id: string
  amount: unknown
  currency_code: string
  status: string
  payment_sessions?: OwedSession[]
  payments?: Array<{ id: string; canceled_at: unknown }>
}

export async function readOwedCollection(container: MedusaContainer, collectionId: string): Promise<OwedCollection | NotPayable> {
  const { data } = await looseQuery(container).graph({
    entity: "payment_collection",
    fields: ["id", "amount", "currency_code", "status", "payment_sessions.id", "payment_sessions.provider_id", "payment_sessions.status", "payment_sessions.amount", "payment_sessions.data", "payments.id", "payments.canceled_at"],
    filters: { id: collectionId },
  })
  const row = data[0] as Row | undefined
  if (!row) return "unknown"
  // A cart's collection is paid at checkout; a link to it would race the storefront's completion.
  if (await findCartIdForCollection(container, row.id)) return "unknown"
  const orderId = await findOrderIdForCollection(container, row.id)
  if (!orderId) return "unknown"
  const livePayments = (row.payments ?? []).filter((p) => !p.canceled_at).length
  if (PAID_STATUSES.has(row.status) || livePayments > 0 || MathBN.lte(row.amount as never, 0)) return "paid"
  if (row.status === "canceled" || (await orderStatus(container, orderId)) === "canceled") return "canceled"
  return {
    id: row.id,
    amount: row.amount,
    currency_code: row.currency_code,
    status: row.status,
    order_id: orderId,
    sessions: row.payment_sessions ?? [],
    live_payments: livePayments,
  }
}

/** The order's payment collections that still owe something (newest last), for the admin's link. */
export async function owedCollectionsOfOrder(container: MedusaContainer, orderId: string): Promise<OwedCollection[]> {
  const { data } = await looseQuery(container).graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: orderId } })
  const owed: OwedCollection[] = []
  for (const link of data as Array<{ payment_collection_id: string }>) {
    const read = await readOwedCollection(container, link.payment_collection_id)
    if (typeof read !== "string") owed.push(read)
  }
  return owed
}
