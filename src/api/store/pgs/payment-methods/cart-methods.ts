/**
 * The PGS methods that can serve a cart (servable.ts): read for the widget's list (payment-methods/route.ts) and
 * checked again before a session is made for it (carts/[id]/payment-sessions), so no route starts a method the
 * list would not offer.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { looseQuery } from "../../../../lib/loose-query"
import { PGS_MODULE } from "../../../../modules/pgs"
import { resolveTerminal } from "../../../../modules/pgs/queries"
import type PgsModuleService from "../../../../modules/pgs/service"
import { servableMethods, type ServableMethod } from "./servable"

export const CART_ID = /^[\w-]{1,100}$/

type RegionView = { payment_providers?: Array<{ id: string; is_enabled?: boolean }> | null }
type CartView = { id: string; currency_code: string; total?: unknown; completed_at?: string | Date | null; customer_id?: string | null; region?: RegionView | null }

/** The region's enabled providers that can serve this currency at its terminal, with the admin's method names. */
export async function regionMethods(scope: MedusaContainer, region: RegionView | null | undefined, currencyCode: string): Promise<ServableMethod[]> {
  const providers = (region?.payment_providers ?? []).filter((p) => p.is_enabled !== false).map((p) => p.id)
  // Before the module's migrations ran the table is missing: the provider options then serve, taking every method.
  const terminal = await resolveTerminal(scope.resolve(ContainerRegistrationKeys.PG_CONNECTION), { currency_code: currencyCode }).catch(() => null)
  return servableMethods(providers, currencyCode, terminal?.enabled_methods ?? null, terminal?.method_names)
}

/** The logged-in customer when the cart is theirs (only then are saved cards offered and used); nobody otherwise. */
export function cartOwner(req: { auth_context?: { actor_type?: string; actor_id?: string } }, cartCustomerId: string | null): string | undefined {
  const actor = req.auth_context?.actor_type === "customer" ? req.auth_context.actor_id : undefined
  return actor && actor === cartCustomerId ? actor : undefined
}

/** Whether the cart is completed (one field: what a check under the cart's lock needs, not its methods). */
export async function cartCompleted(scope: MedusaContainer, cartId: string): Promise<boolean> {
  const { data } = await looseQuery(scope).graph({ entity: "cart", fields: ["id", "completed_at"], filters: { id: cartId } })
  return !!(data[0] as CartView | undefined)?.completed_at
}

/**
 * The cart's currency, owner, whether it is completed, and its servable methods; null for an unknown cart. `total`:
 * also the cart's total (Medusa's cart module computes it from the items, so only the widget's list asks for it).
 */
export async function cartMethods(
  scope: MedusaContainer,
  cartId: string,
  { total = false } = {},
): Promise<{ currency_code: string; total?: unknown; completed: boolean; customer_id: string | null; methods: ServableMethod[] } | null> {
  const { data } = await looseQuery(scope).graph({
    entity: "cart",
    fields: ["id", "currency_code", "completed_at", "customer_id", "region.payment_providers.id", "region.payment_providers.is_enabled", ...(total ? ["total"] : [])],
    filters: { id: cartId },
  })
  const cart = data[0] as CartView | undefined
  if (!cart) return null
  return {
    currency_code: cart.currency_code,
    ...(total ? { total: cart.total } : {}),
    completed: !!cart.completed_at,
    customer_id: cart.customer_id ?? null,
    methods: await regionMethods(scope, cart.region, cart.currency_code),
  }
}

/** The card's entry names the gateway's card-fields script, so the widget asks for it while the session is made, not after. */
export function withCardScript<M extends ServableMethod>(scope: MedusaContainer, methods: M[]): M[] {
  const card = methods.find((m) => m.identifier === "pgs")
  if (card) card.script_url = scope.resolve<PgsModuleService>(PGS_MODULE).cardFieldsScriptUrl()
  return methods
}
