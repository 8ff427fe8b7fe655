/**
 * What a pay link may charge: an order's payment collection that is not a cart's (a cart pays at checkout), still
 * owes something, and is not canceled, nor is its order — read by the shared reader (payments/order-collection),
 * plus the data of its sessions, which the link reuses while a page is open.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { looseQuery } from "../../lib/loose-query"
import { findPayableCollection, whyNotPayable, type PayableCollectionView } from "../../payments/order-collection"

export type OwedSession = { id: string; provider_id: string; status: string; data: Record<string, unknown> | null }

export type OwedCollection = PayableCollectionView & { order_id: string; sessions: OwedSession[] }

/** Why a collection cannot be paid through a link now; "unknown" covers every id that is not an order's collection. */
export type NotPayable = "unknown" | "paid" | "canceled"

export async function readOwedCollection(container: MedusaContainer, collectionId: string): Promise<OwedCollection | NotPayable> {
  const view = await findPayableCollection(container, collectionId)
  const reason = whyNotPayable(view)
  if (reason === "paid") return "paid"
  if (reason === "collection_canceled" || reason === "order_canceled") return "canceled"
  // A cart's collection looks unknown too: a link to it would race the storefront's completion.
  if (reason || !view?.order) return "unknown"
  const { data } = await looseQuery(container).graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "status", "data"],
    filters: { payment_collection_id: view.id },
  })
  return { ...view, order_id: view.order.id, sessions: data as OwedSession[] }
}

/** The order's payment collections that still owe something, for the admin's link. */
export async function owedCollectionsOfOrder(container: MedusaContainer, orderId: string): Promise<OwedCollection[]> {
  const { data } = await looseQuery(container).graph({ entity: "order_payment_collection", fields: ["payment_collection_id"], filters: { order_id: orderId } })
  const owed: OwedCollection[] = []
  for (const link of data as Array<{ payment_collection_id: string }>) {
    const read = await readOwedCollection(container, link.payment_collection_id)
    if (typeof read !== "string") owed.push(read)
  }
  return owed
}
