/**
 * GET /store/pgs/payment-methods?cart_id=… — the PGS methods that can serve this cart (see servable.ts), for the
 * storefront widget's list, each with the admin's names for it per locale (`names`, when the terminal has any); the
 * card's entry says when the checkout asks consent to later charges by the shop (`saved_card_consent: {store_name}`,
 * option savedCardConsent). 400 for a malformed cart id, 404 for an unknown cart.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { looseQuery } from "../../../../lib/loose-query"
import { PGS_MODULE } from "../../../../modules/pgs"
import { resolveTerminal } from "../../../../modules/pgs/queries"
import type PgsModuleService from "../../../../modules/pgs/service"
import { servableMethods } from "./servable"

const query = z.object({
  cart_id: z.string({ error: "cart_id is required: the id of the cart being paid" }).regex(/^[\w-]{1,100}$/, "cart_id must be a cart id such as cart_01J…"),
})

type CartView = { id: string; currency_code: string; region?: { payment_providers?: Array<{ id: string; is_enabled?: boolean }> | null } | null }

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const parsed = query.safeParse(req.query)
  if (!parsed.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, parsed.error.issues.map((i) => i.message).join("; "))
  const { data } = await looseQuery(req.scope).graph({
    entity: "cart",
    fields: ["id", "currency_code", "region.payment_providers.id", "region.payment_providers.is_enabled"],
    filters: { id: parsed.data.cart_id },
  })
  const cart = data[0] as CartView | undefined
  if (!cart) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Cart ${parsed.data.cart_id} was not found`)
  const providers = (cart.region?.payment_providers ?? []).filter((p) => p.is_enabled !== false).map((p) => p.id)
  const terminal = await terminalOf(req, cart.currency_code)
  const methods = servableMethods(providers, cart.currency_code, terminal?.enabled_methods ?? null, terminal?.method_names)
  const card = methods.find((m) => m.identifier === "pgs")
  // The widget asks the shopper's consent to later charges by the shop in words naming the shop (savedCardConsent).
  if (card && req.scope.resolve<PgsModuleService>(PGS_MODULE).payLinkSettings().savedCardConsent) card.saved_card_consent = { store_name: await storeName(req) }
  res.json({ currency_code: cart.currency_code, payment_methods: methods })
}

/** The shop's name as the store module knows it (null when unnamed: the widget then says "the shop"). */
async function storeName(req: MedusaRequest): Promise<string | null> {
  const { data } = await looseQuery(req.scope).graph({ entity: "store", fields: ["name"] })
  const name = (data[0] as { name?: string | null } | undefined)?.name?.trim()
  return name || null
}

/** The terminal the provider would choose for this currency (terminal.ts): its methods (null: all) and names. */
async function terminalOf(req: MedusaRequest, currencyCode: string) {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  // Before the module's migrations ran the table is missing: the provider options then serve, taking every method.
  return resolveTerminal(knex, { currency_code: currencyCode }).catch(() => null)
}
