/** GET /store/pgs/saved-cards — the logged-in customer's usable saved cards. */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { listSavedCards } from "../../../../modules/pgs/queries"
import { savedCardView } from "./view"

export const GET = async (req: AuthenticatedMedusaRequest, res: MedusaResponse) => {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const cards = await listSavedCards(knex, { customer_id: req.auth_context.actor_id })
  res.json({ saved_cards: cards.map(savedCardView) })
}
