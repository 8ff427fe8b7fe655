/**
 * DELETE /store/pgs/saved-cards/:id — delete one of the customer's own saved cards at the gateway, then mark our
 * record DELETED. Another customer's card (or an unknown id) is a 404: existence is not revealed.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { PGS_MODULE } from "../../../../../modules/pgs"
import type PgsModuleService from "../../../../../modules/pgs/service"

const params = z.object({ id: z.string().regex(/^pgscard_[0-9A-Za-z]{10,40}$/) })

export const DELETE = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const notFound = new MedusaError(MedusaError.Types.NOT_FOUND, "Saved card not found")
  const parsed = params.safeParse(req.params)
  if (!parsed.success) throw notFound
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const [card] = await pgs.listPgsSavedCards({ id: parsed.data.id, customer_id: req.auth_context.actor_id, status: "ACTIVE" })
  if (!card) throw notFound

  // The gateway answers a repeated delete with the same DELETED record, so a retry after a lost answer is safe.
  await pgs.gateway().storedMethods.delete(card.payment_method_id)
  await pgs.updatePgsSavedCards({ id: card.id, status: "DELETED" })
  res.json({ id: card.id, object: "saved_card", deleted: true })
}
