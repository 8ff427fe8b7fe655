/** The payment-collection routes (store/pgs/payment-collections/:id/...), through the same store API connection. */
import type { Api } from "../core/api.js"
import type { PaymentSession } from "../core/cart.js"

export type Served = { provider_id: string; identifier: string; voucher_codes?: string[]; script_url?: string }

export type CollectionSummary = {
  id: string
  currency_code: string
  /** Exact major-unit decimal strings, from the server. */
  amount: string
  owed: string
  owed_minor: number
  payable: boolean
  reason: string | null
  /** The order's display number only (its id would open Medusa's order details to anyone holding the link). */
  order: { display_id: number | null }
}

export type CollectionView = { payment_collection: CollectionSummary; payment_methods: Served[]; saved_cards: boolean }

export type Applied = { status: "applied" | "pending" | "requires_more" | "not_approved"; payment_collection: CollectionSummary; payment_session: PaymentSession }

const base = (id: string) => `/store/pgs/payment-collections/${encodeURIComponent(id)}`

export const readCollection = (api: Api, id: string, orderId?: string): Promise<CollectionView> =>
  api.fetch(base(id), { query: orderId ? { order_id: orderId } : {} })

/**
 * The session, with the browser's `client_info` recorded on it when given (one call: no client-info call after it);
 * `orderId`: the link's order, so no session is made on a collection the page would not show.
 */
export const startSession = (api: Api, id: string, body: { provider_id: string; data?: Record<string, unknown>; client_info?: object }, orderId?: string): Promise<PaymentSession> =>
  api.fetch(`${base(id)}/payment-sessions`, { method: "POST", body, query: orderId ? { order_id: orderId } : {} }).then((r) => r.payment_session)

export const applyPayment = (api: Api, id: string, sessionId: string): Promise<Applied> =>
  api.fetch(`${base(id)}/apply`, { method: "POST", body: { payment_session_id: sessionId } })
