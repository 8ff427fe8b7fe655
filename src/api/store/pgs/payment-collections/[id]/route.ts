/**
 * GET /store/pgs/payment-collections/:id?order_id=… — what the payment page behind Medusa's "Copy payment link"
 * shows: what is owed and for which order (display id), the methods that can serve it, and whether the logged-in
 * customer owns the order (only then are saved cards offered). 200 also for a paid collection (payable false, so
 * a reload after paying says so); 404 for an unknown id or another order's; 409 canceled.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { collectionForLink, methodsFor, NOT_FOUND_BODY, ownsOrder, refuse, summaryOf } from "../payable"
import { whyNotPayable } from "../../../../../payments/order-collection"
import { collectionQuery } from "../validators"
import { withCardScript } from "../../payment-methods/cart-methods"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  // A malformed order id is as unknown as a wrong one.
  const query = collectionQuery.safeParse(req.query)
  const view = query.success ? await collectionForLink(req, query.data.order_id) : null
  if (!view) return void res.status(404).json(NOT_FOUND_BODY)
  const reason = whyNotPayable(view)
  if (reason && reason !== "paid") return refuse(res, reason)
  res.json({
    payment_collection: summaryOf(view),
    payment_methods: reason ? [] : withCardScript(req.scope, await methodsFor(req, view)),
    saved_cards: ownsOrder(req, view),
  })
}
