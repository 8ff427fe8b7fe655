/** GET /admin/pgs/customers/:id/saved-cards — the customer's usable saved cards (brand, masked number, expiry). */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { listSavedCards } from "../../../../../../modules/pgs/queries"
import { savedCardView } from "../../../../../store/pgs/saved-cards/view"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const cards = await listSavedCards(knex, { customer_id: req.params.id })
  res.json({ saved_cards: cards.map(savedCardView) })
}
