/**
 * Who a guarded request is, beyond its address: the cart (or, for an order's collection, the collection itself),
 * and the logged-in customer or the cart's (order's) email. Read from Medusa by the id in the path; an id that
 * names nothing gives an empty client, and the route itself then answers as it does (404).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { looseQuery } from "../../lib/loose-query"

export type Who = { cart: string | null; collection: string | null; email: string | null; session: string | null }

const NOBODY: Who = { cart: null, collection: null, email: null, session: null }

async function first(scope: MedusaContainer, entity: string, fields: string[], filters: Record<string, unknown>): Promise<Record<string, unknown> | null> {
  const { data } = await looseQuery(scope).graph({ entity, fields, filters })
  return (data[0] as Record<string, unknown> | undefined) ?? null
}

const str = (value: unknown) => (typeof value === "string" && value ? value : null)
const payer = (row: Record<string, unknown> | null) => str(row?.customer_id) ? `customer:${row!.customer_id}` : str(row?.email)

/** `collection`: the cart's payment collection when the caller knows it already (else read). */
export async function whoOfCart(scope: MedusaContainer, cartId: string, collection?: string): Promise<Who> {
  const cart = await first(scope, "cart", ["id", "email", "customer_id"], { id: cartId })
  if (!cart) return { ...NOBODY, cart: cartId, collection: collection ?? null }
  const link = collection ? null : await first(scope, "cart_payment_collection", ["payment_collection_id"], { cart_id: cartId })
  return { ...NOBODY, cart: cartId, collection: collection ?? str(link?.payment_collection_id), email: payer(cart) }
}

export async function whoOfCollection(scope: MedusaContainer, collectionId: string): Promise<Who> {
  const cartLink = await first(scope, "cart_payment_collection", ["cart_id"], { payment_collection_id: collectionId })
  const cartId = str(cartLink?.cart_id)
  if (cartId) return whoOfCart(scope, cartId, collectionId)
  const orderLink = await first(scope, "order_payment_collection", ["order_id"], { payment_collection_id: collectionId })
  const orderId = str(orderLink?.order_id)
  const order = orderId ? await first(scope, "order", ["id", "email", "customer_id"], { id: orderId }) : null
  return { ...NOBODY, cart: collectionId, collection: collectionId, email: payer(order) }
}

export async function whoOfSession(scope: MedusaContainer, sessionId: string): Promise<Who> {
  const session = await first(scope, "payment_session", ["id", "payment_collection_id"], { id: sessionId })
  const collection = str(session?.payment_collection_id)
  if (!collection) return { ...NOBODY, session: sessionId }
  return { ...(await whoOfCollection(scope, collection)), session: sessionId }
}
