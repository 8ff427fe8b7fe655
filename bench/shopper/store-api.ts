/**
 * What the bench prepares outside the measured phases, through the store's own API: a cart in the demo's EUR region
 * (with or without its address and payment collection), and an order that owes more after an edit (the
 * payment-collection page's case, as in the browser suite's behaviours/order-payment.ts (store-browser.spec.ts)).
 */
import { ADDRESS } from "./pages"
import { BENCH_ADMIN, type Stack } from "./stack"

type Json = Record<string, any> // eslint-disable-line @typescript-eslint/no-explicit-any

export function storeApi(stack: Stack) {
  const call = async (path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Json> => {
    const res = await fetch(stack.storeUrl + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", "x-publishable-api-key": stack.publishableKey, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const data = (await res.json().catch(() => ({}))) as Json
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(data).slice(0, 300)}`)
    return data
  }
  let admin: Promise<Record<string, string>> | undefined
  const adminHeaders = () =>
    (admin ??= fetch(`${stack.storeUrl}/auth/user/emailpass`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(BENCH_ADMIN) })
      .then((r) => r.json() as Promise<{ token: string }>)
      .then(({ token }) => ({ authorization: `Bearer ${token}` })))
  const eurVariant = async () => {
    const { regions } = await call("/store/regions")
    const region = regions.find((r: Json) => r.currency_code === "eur")
    const { products } = await call(`/store/products?region_id=${region.id}&fields=*variants`)
    return { regionId: region.id as string, variantId: products[0].variants[0].id as string }
  }

  return {
    /** A cart with one item; with `address`, the shopper's email and address too; with `collection`, its payment collection. */
    async cart(o: { address?: boolean; collection?: boolean } = {}): Promise<{ cartId: string; collectionId?: string }> {
      const { regionId, variantId } = await eurVariant()
      const details = o.address ? { email: "shopper@example.com", billing_address: ADDRESS, shipping_address: ADDRESS } : {}
      const { cart } = await call("/store/carts", { region_id: regionId, ...details })
      await call(`/store/carts/${cart.id}/line-items`, { variant_id: variantId, quantity: 1 })
      if (!o.collection) return { cartId: cart.id }
      const { payment_collection } = await call("/store/payment-collections", { cart_id: cart.id })
      return { cartId: cart.id, collectionId: payment_collection.id }
    },

    /** Edits a placed order to add one more item, as the dashboard does: its new payment collection owes the difference. */
    async owingMore(orderId: string): Promise<string> {
      const headers = await adminHeaders()
      const { variantId } = await eurVariant()
      for (const [path, body] of [
        ["/admin/order-edits", { order_id: orderId }],
        [`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: variantId, quantity: 1 }] }],
        [`/admin/order-edits/${orderId}/request`, {}],
        [`/admin/order-edits/${orderId}/confirm`, {}],
      ] as const)
        await call(path, body, headers)
      const { order } = await call(`/admin/orders/${orderId}?fields=id,*payment_collections`, undefined, headers)
      const open = order.payment_collections.filter((c: Json) => c.status === "not_paid")
      if (open.length !== 1) throw new Error(`order ${orderId}: expected one not_paid payment collection, got ${JSON.stringify(order.payment_collections.map((c: Json) => c.status))}`)
      return open[0].id
    },
  }
}
