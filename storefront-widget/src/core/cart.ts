/** Cart, payment session and our store/pgs routes, through the store API. */
import { statusOf, wait, type Api } from "./api.js"
import { delayOf, initialFlow, next, type Flow } from "./flow.js"
import type { Order, PaymentSession } from "./store-types.js"

export type { Order, PaymentSession, SessionData } from "./store-types.js"

export type Cart = {
  id: string
  completed_at?: string | null
  email?: string | null
  currency_code?: string
  /** Major units, as Medusa answers. */
  total?: number
  billing_address?: Record<string, string | null> | null
  payment_collection?: { payment_sessions?: PaymentSession[] } | null
}

export const sessionOf = (cart: Cart, providerId: string) => cart.payment_collection?.payment_sessions?.find((s) => s.provider_id === providerId)

/** What submitPayment may tell the gateway about the shopper: the cart's billing address and email, never card data. */
export function payerOf(cart: Cart): Record<string, string> {
  const a = cart.billing_address ?? {}
  const fields: Record<string, string | null | undefined> = {
    firstName: a.first_name, lastName: a.last_name, address: a.address_1, city: a.city, postalCode: a.postal_code,
    country: a.country_code?.toUpperCase(), email: cart.email, phone: a.phone?.startsWith("+") ? a.phone : null,
  }
  return Object.fromEntries(Object.entries(fields).filter((e): e is [string, string] => !!e[1]))
}

/**
 * Creates the payment session, and the cart's payment collection when it has none, in one call (our store route
 * runs Medusa's workflows for both, and records the browser's `client_info` when given); Medusa replaces the
 * cart's other sessions. `reuse`: the server answers the cart's unpaid card-fields session instead, when it has one.
 * A completed cart is refused (409).
 */
export const startSession = (api: Api, cartId: string, body: { provider_id: string; data?: Record<string, unknown>; client_info?: object; reuse?: boolean }): Promise<PaymentSession> =>
  api.fetch(`/store/pgs/carts/${cartId}/payment-sessions`, { method: "POST", body }).then((r) => r.payment_session)

/** One of our store/pgs session routes (the flow decides what a lost answer means: flow.ts). */
export const sessionRoute = (api: Api, sessionId: string, path: string, body: unknown): Promise<PaymentSession> =>
  api.fetch(`/store/pgs/payment-sessions/${sessionId}/${path}`, { method: "POST", body }).then((r) => r.payment_session)

export type Completion = { type: "order"; order: Order } | { type: "cart"; cart: Cart; error: { type: string; message: string } }

/**
 * sdk.store.cart.complete until it answers. Medusa completes a cart at most once (cart lock + order_cart lookup)
 * and the gateway authorizes once per reference, so repeating is safe; which failures are repeated, and how
 * often, is the checkout flow's rule (flow.ts): a 409 (another completion is running) and lost answers.
 */
export async function completeCart(api: Api, cartId: string, onWait: (why: "busy" | "retrying") => void): Promise<Completion> {
  for (let f: Flow = { ...initialFlow, state: "completing" }; ; ) {
    try {
      return await api.complete(cartId)
    } catch (e) {
      f = next(f, { type: "fault", status: statusOf(e) })
      if (f.state !== "completing") throw e
      onWait(f.note!.key as "busy" | "retrying")
      await wait(delayOf(f.tries))
    }
  }
}
