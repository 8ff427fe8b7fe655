/**
 * POST /store/pgs/payment-collections/:id/apply { payment_session_id }
 * The widget calls this after the shopper paid (the card frame's transaction attached, a 3-D Secure step done, a
 * redirect come back): Medusa's workflows record the payment (authorized, or captured when the gateway took the
 * money at once), once, whether this route or the webhook comes first (applyCollectionPayment). There is no cart
 * to complete. Answers { status, payment_collection, payment_session }: status `applied` (also when it already
 * was), `pending` (the gateway decides later: the webhook applies it), `requires_more` (a 3-D Secure step; the
 * session's next_action), `not_approved` (the session's data says why). 404 unknown; 409 not payable.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { applyCollectionPayment } from "../../../../../../workflows/order-payments/apply-collection-payment"
import { findPayableCollection, whyNotPayable } from "../../../../../../payments/order-collection"
import { retrievePgsSession } from "../../../payment-sessions/session-request"
import { collectionForLink, NOT_FOUND_BODY, refuse, summaryOf } from "../../payable"
import type { ApplyBody } from "../../validators"

export async function POST(req: AuthenticatedMedusaRequest<ApplyBody>, res: MedusaResponse) {
  const view = await collectionForLink(req)
  if (!view) return void res.status(404).json(NOT_FOUND_BODY)
  const sessionId = req.validatedBody.payment_session_id
  const applied = view.payments.some((p) => p.payment_session_id === sessionId)
  const reason = whyNotPayable(view)
  // A payment already recorded for this session is answered as applied, even though nothing is owed any more.
  if (reason && !applied) return refuse(res, reason)
  if (!view.payment_sessions.some((s) => s.id === sessionId)) return void res.status(404).json({ type: "not_found", message: "This payment session does not belong to this payment request." })

  const outcome = await applyCollectionPayment(req.scope, { sessionId, collectionId: view.id })
  if (outcome.kind === "unknown_session") return void res.status(404).json(NOT_FOUND_BODY)
  const after = await findPayableCollection(req.scope, view.id)
  const session = await retrievePgsSession(req.scope, sessionId)
  res.json({
    status: outcome.kind === "already_applied" ? "applied" : outcome.kind,
    payment_collection: summaryOf(after ?? view),
    payment_session: { id: session.id, provider_id: session.provider_id, status: session.status, data: session.data ?? {} },
  })
}
