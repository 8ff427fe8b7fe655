/** Cart, payment session and our store/pgs routes, through the store API. */
import { retrying, statusOf, wait, type Api } from "./api"

export type PaymentSession = { id: string; provider_id: string; status: string; data: Record<string, any> }
export type Cart = {
  id: string
  email?: string | null
  region_id?: string | null
  currency_code?: string
  billing_address?: Record<string, string | null> | null
  payment_collection?: { id: string; payment_sessions?: PaymentSession[] } | null
}

const CART_FIELDS = "id,email,region_id,currency_code,*billing_address,*payment_collection,*payment_collection.payment_sessions"

export const readCart = (api: Api, cartId: string): Promise<Cart> =>
  retrying(() => api.fetch(`/store/carts/${cartId}`, { query: { fields: CART_FIELDS } })).then((r) => r.cart)

export const sessionOf = (cart: Cart, providerId: string) => cart.payment_collection?.payment_sessions?.find((s) => s.provider_id === providerId)

/** Creates the payment session (and the collection if the cart has none); Medusa replaces the cart's other sessions. */
export async function initiateSession(api: Api, cart: Cart, providerId: string, data?: Record<string, unknown>): Promise<PaymentSession> {
  let collectionId = cart.payment_collection?.id
  if (!collectionId) collectionId = (await api.fetch("/store/payment-collections", { method: "POST", body: { cart_id: cart.id } })).payment_collection.id
  const res = await api.fetch(`/store/payment-collections/${collectionId}/payment-sessions`, { method: "POST", body: { provider_id: providerId, ...(data ? { data } : {}) } })
  cart.payment_collection = res.payment_collection
  return res.payment_collection.payment_sessions.find((s: PaymentSession) => s.provider_id === providerId)
}

/** One of our store/pgs session routes; each is safe to repeat after a lost answer, so network failures retry. */
export const sessionRoute = (api: Api, sessionId: string, path: string, body: unknown, onRetry?: () => void): Promise<PaymentSession> =>
  retrying(() => api.fetch(`/store/pgs/payment-sessions/${sessionId}/${path}`, { method: "POST", body }), onRetry).then((r) => r.payment_session)

export type Completion = { type: "order"; order: any } | { type: "cart"; cart: any; error: { type: string; message: string } }

/**
 * sdk.store.cart.complete until it answers. Medusa completes a cart at most once (cart lock + order_cart lookup)
 * and the gateway authorizes once per reference, so repeating is safe: on 409 (another completion is running) we
 * wait and ask again, which then returns that completion's order; after a network failure or 5xx we ask again.
 */
export async function completeCart(api: Api, cartId: string, onWait: (why: "busy" | "retrying") => void, deadlineMs = 60_000): Promise<Completion> {
  const end = Date.now() + deadlineMs
  for (let i = 0; ; i++) {
    try {
      return await api.complete(cartId)
    } catch (e) {
      const s = statusOf(e)
      if ((s !== undefined && s !== 409 && s < 500) || Date.now() > end) throw e
      onWait(s === 409 ? "busy" : "retrying")
      await wait(Math.min(300 * 2 ** i, 3000))
    }
  }
}
