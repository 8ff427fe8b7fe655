/**
 * GET /store/pgs/payment-methods?cart_id=… — the PGS methods that can serve this cart (see servable.ts), for the
 * storefront widget's list, each with the admin's names for it per locale (`names`, when the terminal has any); the
 * card's entry says when the checkout asks consent to later charges by the shop (`saved_card_consent: {store_name}`,
 * option savedCardConsent) and the gateway's card-fields script (`script_url`, asked for while the session is made);
 * `saved_cards`: the logged-in customer's saved cards when the cart is theirs, else null (none may be offered);
 * `total`: the cart's total in major units, as GET /store/carts/:id answers it (the widget's Pay button says it, so
 * it reads no cart before its card session: that session is asked for beside this list).
 * 400 for a malformed cart id, 404 for an unknown cart.
 */
import type { AuthenticatedMedusaRequest, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { looseQuery } from "../../../../lib/loose-query"
import { PGS_MODULE } from "../../../../modules/pgs"
import type PgsModuleService from "../../../../modules/pgs/service"
import { listSavedCards } from "../../../../modules/pgs/queries"
import { savedCardView } from "../saved-cards/view"
import { CART_ID, cartMethods, cartOwner, withCardScript } from "./cart-methods"

const query = z.object({
  cart_id: z.string({ error: "cart_id is required: the id of the cart being paid" }).regex(CART_ID, "cart_id must be a cart id such as cart_01J…"),
})

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const parsed = query.safeParse(req.query)
  if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((i) => i.message).join("; "))
  const served = await cartMethods(req.scope, parsed.data.cart_id, { total: true })
  if (!served) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${parsed.data.cart_id} was not found`)
  const { currency_code, total, methods } = served
  const card = withCardScript(req.scope, methods).find((m) => m.identifier === "pgs")
  // The widget asks the shopper's consent to later charges by the shop in words naming the shop (savedCardConsent).
  if (card && req.scope.resolve<PgsModuleService>(PGS_MODULE).payLinkSettings().savedCardConsent) card.saved_card_consent = { store_name: await storeName(req) }
  res.json({ currency_code, total, payment_methods: methods, saved_cards: await savedCardsOn(req, served.customer_id) })
}

/**
 * The logged-in customer's usable saved cards (as GET /store/pgs/saved-cards lists them), only on their own cart:
 * the session route sets no customer on another (a cart made before login and never transferred), so a saved card
 * chosen there would fail. null: none may be offered (a guest, or not their cart).
 */
async function savedCardsOn(req: AuthenticatedMedusaRequest, cartCustomerId: string | null) {
  const owner = cartOwner(req, cartCustomerId)
  if (!owner) return null
  return (await listSavedCards(req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION), { customer_id: owner })).map(savedCardView)
}

/** The shop's name as the store module knows it (null when unnamed: the widget then says "the shop"). */
async function storeName(req: MedusaRequest): Promise<string | null> {
  const { data } = await looseQuery(req.scope).graph({ entity: "store", fields: ["name"] })
  const name = (data[0] as { name?: string | null } | undefined)?.name?.trim()
  return name || null
}
