/**
 * POST /store/pgs/payment-collections/:id/payment-sessions?order_id=… { provider_id, data?, client_info? }
 * Starts paying an order's collection with one of the methods that can serve it (Medusa's own
 * createPaymentSessionsWorkflow; Medusa keeps only the newest session). Refused before any money moves when
 * nothing is owed, the collection or its order is canceled, or it belongs to a cart. The customer (saved cards,
 * the card saved for later) is the logged-in one only when they own the order. `client_info` records the browser's
 * details on the new session as the client-info route does (client-info-request.ts): a redirect method's Pay is one
 * call fewer. `order_id` (optional, as on the GET): the link's order; another order's collection is unknown (404), so
 * the widget, which asks for the card's session beside the collection, makes none on a collection it will not show.
 * 200 { payment_session }; 400 a method that cannot serve it; 404 unknown; 409 not payable (or the client info refused
 * by the provider); 503 the gateway away.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { createPaymentSessionsWorkflow } from "@medusajs/core-flows"
import { whyNotPayable } from "../../../../../../payments/order-collection"
import { collectionForLink, methodsFor, NOT_FOUND_BODY, ownsOrder, refuse } from "../../payable"
import { collectionQuery, type CollectionSessionBody } from "../../validators"
import { withClientInfo } from "../../../payment-sessions/client-info-request"

export async function POST(req: AuthenticatedMedusaRequest<CollectionSessionBody>, res: MedusaResponse) {
  // A malformed order id is as unknown as a wrong one.
  const query = collectionQuery.safeParse(req.query)
  const view = query.success ? await collectionForLink(req, query.data.order_id) : null
  if (!view) return void res.status(404).json(NOT_FOUND_BODY)
  const reason = whyNotPayable(view)
  if (reason) return refuse(res, reason)
  const { provider_id, data, client_info } = req.validatedBody
  if (!(await methodsFor(req, view)).some((m) => m.provider_id === provider_id))
    return void res.status(400).json({ type: "invalid_data", message: `provider_id ${provider_id} cannot serve this payment` })
  const { result } = await createPaymentSessionsWorkflow(req.scope).run({
    input: { payment_collection_id: view.id, provider_id, customer_id: ownsOrder(req, view) ? req.auth_context.actor_id : undefined, data },
  })
  const made = result as { id: string; provider_id: string; status: string; data: Record<string, unknown> | null }
  const session = await withClientInfo(req, res, { id: made.id, provider_id: made.provider_id, status: made.status, data: made.data ?? {} }, client_info)
  if (session) res.json({ payment_session: session })
}
