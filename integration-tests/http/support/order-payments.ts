/**
 * Money after checkout, as the dashboard and a payer without a cart meet it: an order placed through checkout is
 * edited in the admin (Medusa's order-edit routes: begin, add an item, request, confirm) so it owes more, and the
 * payer pays the new collection through our store routes.
 */
import { admin, paidOrder } from "./admin-pgs"
import type { StoreSuite } from "./store"

/** An order whose edit added `quantity` more of the seeded item: its open (not_paid) payment collection. */
export async function orderOwingMore(s: StoreSuite, quantity = 1) {
  const { orderId, transactionId } = await paidOrder(s)
  await editAddingItem(s, orderId, quantity)
  const collection = await openCollection(s, orderId)
  return { orderId, collectionId: collection.id as string, firstTransactionId: transactionId }
}

export async function editAddingItem(s: StoreSuite, orderId: string, quantity = 1) {
  const steps: Array<[string, unknown]> = [
    ["/admin/order-edits", { order_id: orderId }],
    [`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: s.seed.variantId, quantity }] }],
    [`/admin/order-edits/${orderId}/request`, {}],
    [`/admin/order-edits/${orderId}/confirm`, {}],
  ]
  for (const [path, body] of steps) {
    const res = await admin(s, "post", path, body)
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.data).slice(0, 400)}`)
  }
}

/** The order as the dashboard reads it: totals, summary and every payment collection with its payments. */
export async function adminOrder(s: StoreSuite, orderId: string) {
  const res = await admin(s, "get", `/admin/orders/${orderId}?fields=id,display_id,total,summary,payment_status,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures`)
  if (res.status !== 200) throw new Error(`admin order: ${res.status}`)
  return res.data.order
}

export async function openCollection(s: StoreSuite, orderId: string) {
  const order = await adminOrder(s, orderId)
  const open = order.payment_collections.filter((c: any) => c.status === "not_paid")
  if (open.length !== 1) throw new Error(`expected one not_paid collection, got ${JSON.stringify(order.payment_collections.map((c: any) => [c.id, c.status]))}`)
  return open[0]
}

type Headers = Record<string, string>
const call = (s: StoreSuite, method: "get" | "post", path: string, body?: unknown, headers: Headers = {}) => {
  const config = { headers: { ...s.storeHeaders, ...headers }, validateStatus: () => true }
  return method === "get" ? s.api.get(path, config) : s.api.post(path, body ?? {}, config)
}

export const collectionSummary = (s: StoreSuite, id: string, query = "", headers?: Headers) => call(s, "get", `/store/pgs/payment-collections/${id}${query}`, undefined, headers)
export const collectionSession = (s: StoreSuite, id: string, body: unknown, headers?: Headers) => call(s, "post", `/store/pgs/payment-collections/${id}/payment-sessions`, body, headers)
export const applyPayment = (s: StoreSuite, id: string, sessionId: string, headers?: Headers) =>
  call(s, "post", `/store/pgs/payment-collections/${id}/apply`, { payment_session_id: sessionId }, headers)
