/**
 * Medusa's own order changes after checkout, made through the admin routes the dashboard calls: an exchange and a
 * claim that send out more than they take back (so the order owes more), and a return received in full (so the
 * shop owes the customer).
 */
import { Modules } from "@medusajs/framework/utils"
import { admin } from "./admin-pgs"
import type { StoreSuite } from "./store"

/** One admin step of an order change; throws with Medusa's answer when it is refused. */
export async function adminStep(s: StoreSuite, path: string, body: unknown = {}) {
  const res = await admin(s, "post", path, body)
  if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.data).slice(0, 500)}`)
  return res.data
}

/** The order's line items (id, quantity, unit price). */
export async function orderItems(s: StoreSuite, orderId: string): Promise<Array<{ id: string; quantity: number; unit_price: number }>> {
  return (await admin(s, "get", `/admin/orders/${orderId}?fields=id,*items`)).data.order.items
}

/**
 * Marks every item of the order fulfilled. Only a fulfilled item can be taken back (exchange, claim, return); the
 * seeded store has no stock location with a fulfillment provider, so the fulfillment is registered on the order
 * itself (what those flows check).
 */
export async function fulfillAll(s: StoreSuite, orderId: string) {
  const items = await orderItems(s, orderId)
  await s.container().resolve<any>(Modules.ORDER).registerFulfillment({ order_id: orderId, items: items.map((i) => ({ id: i.id, quantity: i.quantity })) })
  return items
}

/** What an exchange or a claim made: the return it opened for the item taken back, and that item. */
export type OrderChange = { returnId: string; itemTakenBack: { id: string; quantity: number } }

/**
 * An exchange taking back one item and sending out two of the seeded variant. Medusa's payment collection asks for
 * the difference (one item), while the order's outstanding amount counts both new items until the item taken back
 * is received (receiveReturn).
 */
export async function exchangeOwingMore(s: StoreSuite, orderId: string): Promise<OrderChange> {
  const [item] = await fulfillAll(s, orderId)
  const { exchange } = await adminStep(s, "/admin/exchanges", { order_id: orderId })
  await adminStep(s, `/admin/exchanges/${exchange.id}/inbound/items`, { items: [{ id: item.id, quantity: 1 }] })
  await adminStep(s, `/admin/exchanges/${exchange.id}/outbound/items`, { items: [{ variant_id: s.seed.variantId, quantity: 2 }] })
  await adminStep(s, `/admin/exchanges/${exchange.id}/request`)
  const { return_id } = (await admin(s, "get", `/admin/exchanges/${exchange.id}?fields=id,return_id`)).data.exchange
  return { returnId: return_id, itemTakenBack: { id: item.id, quantity: 1 } }
}

/** A replacement claim taking back one item and sending out two of the seeded variant: the same money as the exchange. */
export async function claimOwingMore(s: StoreSuite, orderId: string): Promise<OrderChange> {
  const [item] = await fulfillAll(s, orderId)
  const { claim } = await adminStep(s, "/admin/claims", { order_id: orderId, type: "replace" })
  await adminStep(s, `/admin/claims/${claim.id}/inbound/items`, { items: [{ id: item.id, quantity: 1 }] })
  await adminStep(s, `/admin/claims/${claim.id}/outbound/items`, { items: [{ variant_id: s.seed.variantId, quantity: 2 }] })
  await adminStep(s, `/admin/claims/${claim.id}/request`)
  const { return_id } = (await admin(s, "get", `/admin/claims/${claim.id}?fields=id,return_id`)).data.claim
  return { returnId: return_id, itemTakenBack: { id: item.id, quantity: 1 } }
}

/** The dashboard receives a return's items and confirms it. */
/** The order changes that make an order owe more, by name: each payment drill runs on both. */
export const ORDER_CHANGES_OWING_MORE: ReadonlyArray<[string, (s: StoreSuite, orderId: string) => Promise<OrderChange>]> = [
  ["an exchange", exchangeOwingMore],
  ["a claim", claimOwingMore],
]

export async function receiveReturn(s: StoreSuite, returnId: string, items: Array<{ id: string; quantity: number }>) {
  await adminStep(s, `/admin/returns/${returnId}/receive`)
  await adminStep(s, `/admin/returns/${returnId}/receive-items`, { items })
  await adminStep(s, `/admin/returns/${returnId}/receive/confirm`)
}

/** Medusa's return of every fulfilled item, requested, then received and confirmed in the dashboard. */
export async function returnEverything(s: StoreSuite, orderId: string) {
  const items = await fulfillAll(s, orderId)
  const lines = items.map((i) => ({ id: i.id, quantity: i.quantity }))
  const { return: opened } = await adminStep(s, "/admin/returns", { order_id: orderId })
  await adminStep(s, `/admin/returns/${opened.id}/request-items`, { items: lines })
  await adminStep(s, `/admin/returns/${opened.id}/request`)
  await receiveReturn(s, opened.id, lines)
  return opened.id as string
}
