/**
 * What the payment-collection routes share: the collection as its link holder may see it (amount, currency,
 * the order's display id; never the order's email, address or customer), the methods that can serve it, and
 * the 4xx for a collection that cannot be paid. Unknown, malformed, cart-bound-to-nobody and order-less ids all
 * answer the same 404, so the answer does not tell whether a collection exists.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { looseQuery } from "../../../../lib/loose-query"
import { findPayableCollection, NOT_PAYABLE_MESSAGES, whyNotPayable, type NotPayableReason, type PayableCollectionView } from "../../../../payments/order-collection"
import type { ServableMethod } from "../payment-methods/servable"
import { regionMethods } from "../payment-methods/cart-methods"

export const NOT_FOUND_BODY = { type: "not_found", message: NOT_PAYABLE_MESSAGES.not_found }

/** The collection when it exists and belongs to an order (and to `orderId` when the link names one), else null. */
export async function collectionForLink(req: AuthenticatedMedusaRequest, orderId?: unknown): Promise<PayableCollectionView | null> {
  const view = await findPayableCollection(req.scope, String(req.params.id ?? ""))
  if (!view?.order) return null
  if (orderId !== undefined && orderId !== view.order.id) return null
  return view
}

/** Reasons answered 404 (they would tell a stranger that something exists) or 409 (the link holder's own collection). */
export function refuse(res: MedusaResponse, reason: NotPayableReason): void {
  if (reason === "not_found" || reason === "no_order") {
    res.status(404).json(NOT_FOUND_BODY)
    return
  }
  res.status(409).json({ type: "not_payable", reason, message: NOT_PAYABLE_MESSAGES[reason] })
}

/** The logged-in customer owns this collection's order: only then are saved cards offered and used. */
export const ownsOrder = (req: AuthenticatedMedusaRequest, view: PayableCollectionView) =>
  !!req.auth_context?.actor_id && req.auth_context.actor_id === view.order?.customer_id

/**
 * What a link holder sees: amounts from the server (exact decimal strings and minor units), the order's display
 * number. Never the order's id: Medusa's GET /store/orders/{id} answers anyone holding it with the customer's
 * email, name, address and items.
 */
export function summaryOf(view: PayableCollectionView) {
  const reason = whyNotPayable(view)
  return {
    id: view.id,
    status: view.status,
    currency_code: view.currency_code,
    amount: view.amount,
    owed: view.owed,
    owed_minor: view.owed_minor,
    payable: reason === null,
    reason,
    order: { display_id: view.order!.display_id },
  }
}

/** The PGS methods that can serve this collection: the order's region, as for carts (payment-methods/cart-methods.ts). */
export async function methodsFor(req: AuthenticatedMedusaRequest, view: PayableCollectionView): Promise<ServableMethod[]> {
  if (!view.order?.region_id) return []
  const { data } = await looseQuery(req.scope).graph({
    entity: "region",
    fields: ["id", "payment_providers.id", "payment_providers.is_enabled"],
    filters: { id: view.order.region_id },
  })
  return regionMethods(req.scope, data[0] as Parameters<typeof regionMethods>[1], view.currency_code)
}
