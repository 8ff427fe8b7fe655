/**
 * POST /store/pgs/carts/:id/payment-sessions { provider_id, data?, client_info?, reuse? }
 * The widget's one call to start paying a cart: the cart's payment collection (made with Medusa's own
 * createPaymentCollectionForCartWorkflow when it has none) and the session (createPaymentSessionsWorkflow; Medusa
 * keeps only the newest), where Medusa's store API takes two calls one after the other. Only a method the cart's
 * method list offers (payment-methods/cart-methods.ts). Guarded against card testing as Medusa's session route is
 * (api/card-testing/middleware-routes.ts). The session's customer is the logged-in one only when the cart is theirs
 * (Medusa's route takes whoever is logged in: a stranger's account holder would land on another shopper's cart).
 * A completed cart is refused: its collection is the order's, and a new session would retire the order's payment;
 * checked again under Medusa's cart lock (the one its completion holds) before the session is made.
 * `client_info` records the browser's details on the new session as the client-info route does (client-info-request.ts).
 * `reuse`: the cart's unpaid card-fields session is answered again when it has one (reusable.ts): the widget asks for
 * the card's session beside the method list, before it could see the cart's sessions. Asked again under the cart's
 * lock, so calls that ask to reuse at once share one session.
 * 200 { payment_session }; 400 bad body or a method that cannot serve the cart; 404 unknown cart; 409 completed cart
 * (or the client info refused by the provider); 503 the gateway away.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { MedusaContainer } from "@medusajs/framework/types"
import { createPaymentCollectionForCartWorkflow, createPaymentSessionsWorkflow } from "@medusajs/core-flows"
import { RENEWED_LEASE_SECONDS, underLeasedLock } from "../../../../../../lib/leased-lock"
import { looseQuery } from "../../../../../../lib/loose-query"
import { rememberClient } from "../../../../../../payments/card-testing/client-record"
import { guardAddress } from "../../../../../card-testing/address"
import { guardDeps } from "../../../../../card-testing/middleware"
import { CART_ID, cartCompleted, cartMethods, cartOwner } from "../../../payment-methods/cart-methods"
import type { CartSessionBody } from "../../../payment-collections/validators"
import { withClientInfo } from "../../../payment-sessions/client-info-request"
import { reusableSession } from "./reusable"

const notFound = (id: string) => ({ type: "not_found", message: `Cart ${id} was not found` })
const completed = (id: string) => ({ type: "not_allowed", message: `Cart ${id} is already completed` })

/**
 * completeCartWorkflow's lock: the cart id, waited for up to its 30 s (core-flows cart/workflows/complete-cart). A lease
 * lost while the session was made (lib/leased-lock.ts) answers the session: it was made, and a later one replaces it.
 */
const CART_LOCK_TIMEOUT_SECONDS = 30
const underCartLock = <T>(scope: MedusaContainer, cartId: string, run: () => Promise<T>): Promise<T> =>
  underLeasedLock(scope, cartId, run, { timeout: CART_LOCK_TIMEOUT_SECONDS, expire: RENEWED_LEASE_SECONDS })

export async function POST(req: AuthenticatedMedusaRequest<CartSessionBody>, res: MedusaResponse) {
  const cartId = String(req.params.id)
  const served = CART_ID.test(cartId) ? await cartMethods(req.scope, cartId) : null
  if (!served) return void res.status(404).json(notFound(cartId))
  if (served.completed) return void res.status(409).json(completed(cartId))
  const { provider_id, data, client_info, reuse } = req.validatedBody
  if (!served.methods.some((m) => m.provider_id === provider_id))
    return void res.status(400).json({ type: "invalid_data", message: `provider_id ${provider_id} cannot serve this cart` })
  const existing = await collectionOf(req.scope, cartId)
  const collectionId = existing ?? (await newCollection(req, cartId))
  const customer_id = cartOwner(req, served.customer_id)
  // Asked with session data, a new session is made (a kept one was made without it).
  const reusable = () => (reuse && !data ? reusableSession(req.scope, collectionId, provider_id, customer_id) : null)
  // Answering a kept session writes nothing, so it needs no lock (the cart was checked above).
  const kept = existing ? await reusable() : null
  // Medusa's session workflow deletes the collection's other sessions, one a running completion may have just
  // authorized: the check and the session are made under the cart's lock, which that completion holds throughout.
  const made = kept ?? (await underCartLock(req.scope, cartId, async () => {
    if (await cartCompleted(req.scope, cartId)) return null
    // Two calls asking to reuse at once both found nothing above (a checkout reloaded while its first call still ran
    // in the store, two tabs opening): the one that comes second answers the session the first made instead of
    // retiring it, or the page holding the first would be told "expired" at Pay.
    const madeMeanwhile = await reusable()
    if (madeMeanwhile) return madeMeanwhile
    const { result } = await createPaymentSessionsWorkflow(req.scope).run({
      input: { payment_collection_id: collectionId, provider_id, customer_id, data },
    })
    return result as { id: string; provider_id: string; status: string; data: Record<string, unknown> | null }
  }))
  if (!made) return void res.status(409).json(completed(cartId))
  const session = await withClientInfo(req, res, { id: made.id, provider_id: made.provider_id, status: made.status, data: made.data ?? {}, payment_collection_id: collectionId }, client_info)
  if (session) res.json({ payment_session: session })
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
  // The guard never turns a payment into a 5xx: without the record, this collection's declines count by cart only.
  try {
    await rememberClient(guardDeps(req.scope).knex, id, guardAddress(req))
  } catch (error) {
    req.scope.resolve<{ warn(message: string): void }>("logger").warn(`[pgs] card-testing guard: the client of payment collection ${id} not recorded: ${(error as Error).message}`)
  }
  return id
}
