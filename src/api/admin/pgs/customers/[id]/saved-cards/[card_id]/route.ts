/**
 * DELETE /admin/pgs/customers/:id/saved-cards/:card_id — what the customer's own DELETE /store/pgs/saved-cards/:id
 * does, for a shop admin: delete the card at the gateway, then mark our record DELETED. A card of another customer
 * (or an unknown id) is a 404.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../../../../../../../modules/pgs"
import type PgsModuleService from "../../../../../../../modules/pgs/service"

export const DELETE = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const [card] = await pgs.listPgsSavedCards({ id: req.params.card_id, customer_id: req.params.id, status: "ACTIVE" })
  if (!card) throw new MedusaError(MedusaError.Types.NOT_FOUND, "Saved card not found")
  // The gateway answers a repeated delete with the same DELETED record, so a retry after a lost answer is safe.
  await pgs.gateway().storedMethods.delete(card.payment_method_id)
  await pgs.updatePgsSavedCards({ id: card.id, status: "DELETED" })
  res.json({ id: card.id, object: "saved_card", deleted: true })
}
