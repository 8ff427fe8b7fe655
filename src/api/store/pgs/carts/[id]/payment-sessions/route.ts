/**
 * POST /store/pgs/carts/:id/payment-sessions { provider_id, data?, client_info? }
 * The widget's one call to start paying a cart: the cart's payment collection (made with Medusa's own
 * createPaymentCollectionForCartWorkflow when it has none) and the session (createPaymentSessionsWorkflow; Medusa
 * keeps only the newest), where Medusa's store API takes two calls one after the other. Only a method the cart's
 * method list offers (payment-methods/cart-methods.ts). Guarded against card testing as Medusa's session route is
 * (api/card-testing/middleware-routes.ts). The session's customer is the logged-in one only when the cart is theirs
 * (Medusa's route takes whoever is logged in: a stranger's account holder would land on another shopper's cart).
 * A completed cart is refused: its collection is the order's, and a new session would retire the order's payment.
 * `client_info` records the browser's details on the new session as the client-info route does (client-info-request.ts).
 * 200 { payment_session }; 400 bad body or a method that cannot serve the cart; 404 unknown cart; 409 completed cart
 * (or the client info refused by the provider); 503 the gateway away.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createPaymentCollectionForCartWorkflow, createPaymentSessionsWorkflow } from "@medusajs/core-flows"
import { looseQuery } from "../../../../../../lib/loose-query"
import { rememberClient } from "../../../../../../payments/card-testing/client-record"
import { guardAddress } from "../../../../../card-testing/address"
import { guardDeps } from "../../../../../card-testing/middleware"
import { CART_ID, cartMethods } from "../../../payment-methods/cart-methods"
import type { CollectionSessionBody } from "../../../payment-collections/validators"
import { withClientInfo } from "../../../payment-sessions/client-info-request"

const notFound = (id: string) => ({ type: "not_found", message: `Cart ${id} was not found` })

export async function POST(req: AuthenticatedMedusaRequest<CollectionSessionBody>, res: MedusaResponse) {
  const cartId = String(req.params.id)
  const served = CART_ID.test(cartId) ? await cartMethods(req.scope, cartId) : null
  if (!served) return void res.status(404).json(notFound(cartId))
  if (served.completed) return void res.status(409).json({ type: "not_allowed", message: `Cart ${cartId} is already completed` })
  const { provider_id, data, client_info } = req.validatedBody
  if (!served.methods.some((m) => m.provider_id === provider_id))
    return void res.status(400).json({ type: "invalid_data", message: `provider_id ${provider_id} cannot serve this cart` })
  const collectionId = (await collectionOf(req.scope, cartId)) ?? (await newCollection(req, cartId))
  const { result } = await createPaymentSessionsWorkflow(req.scope).run({
    input: { payment_collection_id: collectionId, provider_id, customer_id: ownerOf(req, served.customer_id), data },
  })
  const made = result as { id: string; provider_id: string; status: string; data: Record<string, unknown> | null }
  const session = await withClientInfo(req, res, { id: made.id, provider_id: made.provider_id, status: made.status, data: made.data ?? {}, payment_collection_id: collectionId }, client_info)
  if (session) res.json({ payment_session: session })
}

/** The logged-in customer when the cart is theirs; nobody otherwise. */
function ownerOf(req: AuthenticatedMedusaRequest, cartCustomerId: string | null): string | undefined {
  const actor = req.auth_context?.actor_type === "customer" ? req.auth_context.actor_id : undefined
  return actor && actor === cartCustomerId ? actor : undefined
}

async function collectionOf(scope: MedusaContainer, cartId: string): Promise<string | null> {
  const { data } = await looseQuery(scope).graph({ entity: "cart_payment_collection", fields: ["payment_collection_id"], filters: { cart_id: cartId } })
  return (data[0] as { payment_collection_id?: string } | undefined)?.payment_collection_id ?? null
}

/**
 * The cart's new collection. Another tab (or widget) making it at the same moment wins, and this one uses theirs
 * (Medusa's workflow refuses a second). The card-testing guard keeps the address that asked for its sessions; it
 * could not before the collection existed, so this route does (for a collection that existed, the guard did).
 */
async function newCollection(req: AuthenticatedMedusaRequest, cartId: string): Promise<string> {
  let id: string
  try {
    id = ((await createPaymentCollectionForCartWorkflow(req.scope).run({ input: { cart_id: cartId } })).result as { id: string }).id
  } catch (error) {
    const theirs = await collectionOf(req.scope, cartId)
    if (theirs) return theirs
    throw error
  }
  await rememberClient(guardDeps(req.scope).knex, id, guardAddress(req))
  return id
}
