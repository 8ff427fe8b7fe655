/**
 * Redirect checkout support: a cart paid with one of the method-family providers, driven the way a storefront
 * and a shopper do it — initiate, client-info, complete (→ requires_more with the redirect), the sandbox provider
 * page's buttons (plain form posts), the return, completing again — plus reads of what Medusa recorded.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { request } from "undici"
import { BROWSER_INFO } from "../../support/sandbox"
import type { StoreSuite } from "./store"
import { waitFor } from "./webhooks"

export type Choice = "approve" | "decline" | "cancel" | "pending"

export const providerId = (identifier: string) => `pp_${identifier}_pgs`

export type RedirectStart = { cartId: string; sessionId: string; transactionId: string; url: string; session: any }

export function clientInfo(s: StoreSuite, sessionId: string, body: Record<string, unknown> = {}) {
  return s.api.post(`/store/pgs/payment-sessions/${sessionId}/client-info`, body, { headers: s.storeHeaders, validateStatus: () => true })
}

export async function sessionStatus(s: StoreSuite, sessionId: string) {
  const res = await s.api.get(`/store/pgs/payment-sessions/${sessionId}/status`, { headers: s.storeHeaders })
  return res.data.payment_session as { id: string; status: string; gateway_status: string | null; error: { message: string } | null; next_action: any }
}

/** Cart → session of `identifier` → client-info → first completion, which must hand back the redirect. */
export async function startRedirect(
  s: StoreSuite,
  identifier: string,
  opts: { currency?: string; data?: Record<string, unknown>; cart?: Parameters<StoreSuite["createCart"]>[0] } = {},
): Promise<RedirectStart> {
  const cart = await s.createCart({ currency_code: opts.currency ?? "eur", ...opts.cart })
  const session = await s.initiatePaymentSession(cart.id, providerId(identifier), opts.data)
  const info = await clientInfo(s, session.id, { browser_info: BROWSER_INFO })
  if (info.status !== 200) throw new Error(`client-info: ${info.status} ${JSON.stringify(info.data)}`)
  const first = await s.completeCart(cart.id)
  if (first.data?.type !== "cart" || first.data?.error?.type !== "payment_requires_more_error")
    throw new Error(`first completion should ask for the redirect, got ${first.status} ${JSON.stringify(first.data).slice(0, 400)}`)
  const status = await sessionStatus(s, session.id)
  if (status.next_action?.type !== "redirect") throw new Error(`no redirect in the session: ${JSON.stringify(status)}`)
  const stored = await sessionRow(s, session.id)
  return { cartId: cart.id, sessionId: session.id, transactionId: stored.data.transaction_id, url: status.next_action.url, session: stored }
}

/** The shopper presses a button on the sandbox provider page; answers where the browser is sent next. */
export async function choose(url: string, choice: Choice, form: Record<string, string> = {}): Promise<string | null> {
  const res = await request(`${url}/${choice}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(form).toString(),
  })
  await res.body.text()
  if (res.statusCode !== 303) throw new Error(`provider page ${choice}: ${res.statusCode}`)
  return (res.headers.location as string | undefined) ?? null
}

export async function sessionRow(s: StoreSuite, sessionId: string) {
  const query = s.container().resolve(ContainerRegistrationKeys.QUERY) as any
  const { data } = await query.graph({ entity: "payment_session", fields: ["id", "status", "data", "payment_collection_id"], filters: { id: sessionId } })
  return data[0]
}

/** The order's payment collection (status) and its payments with captures, through the admin API. */
export async function orderPayments(s: StoreSuite, orderId: string) {
  const res = await s.api.get(
    `/admin/orders/${orderId}?fields=id,payment_status,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures,*payment_collections.payments.refunds`,
    { headers: await s.adminHeaders() },
  )
  const order = res.data.order
  const collection = order.payment_collections[0]
  return { order, collection, payments: (collection?.payments ?? []) as any[] }
}

/** Polls until the order's payment is captured (the webhook decided), returning the payments. */
export function capturedPayments(s: StoreSuite, orderId: string) {
  return waitFor(
    async () => {
      const { payments } = await orderPayments(s, orderId)
      return payments.length === 1 && payments[0].captured_at ? payments : undefined
    },
    { what: `captured payment of order ${orderId}` },
  )
}

/** The sandbox's view of a transaction (status). */
export async function gatewayTransaction(s: StoreSuite, transactionId: string) {
  return (await s.sandbox.control("GET", `/_sandbox/transactions/${transactionId}`)).body
}
