/**
 * POST /store/pgs/payment-collections/:id/payment-sessions { provider_id, data? }
 * Starts paying an order's collection with one of the methods that can serve it (Medusa's own
 * createPaymentSessionsWorkflow; Medusa keeps only the newest session). Refused before any money moves when
 * nothing is owed, the collection or its order is canceled, or it belongs to a cart. The customer (saved cards,
 * the card saved for later) is the logged-in one only when they own the order.
 * 200 { payment_session }; 400 a method that cannot serve it; 404 unknown; 409 not payable.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { createPaymentSessionsWorkflow } from "@medusajs/core-flows"
import { whyNotPayable } from "../../../../../../payments/order-collection"
import { collectionForLink, methodsFor, NOT_FOUND_BODY, ownsOrder, refuse } from "../../payable"
import type { CollectionSessionBody } from "../../validators"

export async function POST(req: AuthenticatedMedusaRequest<CollectionSessionBody>, res: MedusaResponse) {
  const view = await collectionForLink(req)
  if (!view) return void res.status(404).json(NOT_FOUND_BODY)
  const reason = whyNotPayable(view)
  if (reason) return refuse(res, reason)
  const { provider_id, data } = req.validatedBody
  if (!(await methodsFor(req, view)).some((m) => m.provider_id === provider_id))
    return void res.status(400).json({ type: "invalid_data", message: `provider_id ${provider_id} cannot serve this payment` })
  const { result } = await createPaymentSessionsWorkflow(req.scope).run({
    input: { payment_collection_id: view.id, provider_id, customer_id: ownsOrder(req, view) ? req.auth_context.actor_id : undefined, data },
  })
  const session = result as { id: string; provider_id: string; status: string; data: Record<string, unknown> | null }
  res.json({ payment_session: { id: session.id, provider_id: session.provider_id, status: session.status, data: session.data ?? {} } })
}
