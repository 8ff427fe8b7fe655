/**
 * POST /admin/pgs/orders/:id/charge-saved-card {payment_collection_id, saved_card_id, idempotency_key, browser_info}
 * Charges what the order owes on that collection to the customer's saved card (one saved with consent to charges
 * by the shop). 200 {outcome, message, payment_id?}: paid, already_paid, customer_needed (3-D Secure: send the pay
 * link), declined, pending; 404 not owed / not the customer's card; 409 no consent on the card. Charged once for
 * double clicks, retries with the same key and two admins (workflows/pay-link/charge-saved-card.ts).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { chargeSavedCard } from "../../../../../../workflows/pay-link/charge-saved-card"
import type { ChargeSavedCardBody } from "./validators"

export async function POST(req: AuthenticatedMedusaRequest<ChargeSavedCardBody>, res: MedusaResponse) {
  const body = req.validatedBody
  let result
  try {
    result = await chargeSavedCard(req.scope, {
      orderId: req.params.id,
      collectionId: body.payment_collection_id,
      savedCardId: body.saved_card_id,
      key: body.idempotency_key,
      browserInfo: body.browser_info,
    })
  } catch (error) {
    // The gateway or the lock did not answer: the card may or may not be charged; the same click is safe to retry.
    req.scope.resolve(ContainerRegistrationKeys.LOGGER).error(`[pgs] saved-card charge for order ${req.params.id}: ${(error as Error)?.message ?? String(error)}`)
    res.status(503).json({
      type: "unavailable",
      outcome: "unknown",
      message: "The gateway could not be reached or did not answer, so the card may or may not have been charged. Retry the same charge: it is never taken twice.",
    })
    return
  }
  if (result.outcome === "not_found") return void res.status(404).json({ type: "not_found", ...result })
  if (result.outcome === "no_consent") return void res.status(409).json({ type: "not_allowed", ...result })
  res.json(result)
}
