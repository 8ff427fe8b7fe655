/**
 * What a storefront does around our provider, step by step: pay inside the Embedded Fields frame (the sandbox's
 * client-key API, exactly as the iframe calls it), report the transaction to our store route, complete the cart;
 * and what the dashboard does afterwards (capture, refund, cancel) through the admin API.
 */
import { BROWSER_INFO, type SandboxHarness } from "../../support/sandbox"
import type { StoreSuite } from "./store"

export { BROWSER_INFO }

const nextYear = new Date().getFullYear() + 2

/** POST {sandbox}/embedded/api/sessions/{id}/pay with the public client key, as embedded-frame.js does. */
export async function payInFrame(sandbox: SandboxHarness, session: { data: Record<string, any> }, cardNumber: string) {
  const res = await sandbox.raw("POST", `/embedded/api/sessions/${session.data.gateway_session_id}/pay`, {
    json: {
      type: "card",
      card: { number: cardNumber, cvv: "123", expiration_month: 12, expiration_year: nextYear },
      browser_info: BROWSER_INFO,
    },
    headers: { "x-client-key": session.data.client_key },
  })
  if (res.status !== 200) throw new Error(`embedded pay failed: ${res.status} ${res.text}`)
  const r = res.body
  const transactionId: string = r.result?.id ?? r.action?.transaction_id ?? r.redirect?.transaction_id ?? r.form_submit?.transaction_id
  return { response: r, transactionId }
}

/** Our store route: the storefront reports which transaction the frame produced. */
export function attachTransaction(s: StoreSuite, paymentSessionId: string, transactionId: string) {
  return s.api.post(`/store/pgs/payment-sessions/${paymentSessionId}/transaction`, { transaction_id: transactionId }, { headers: s.storeHeaders, validateStatus: () => true })
}

export function storePost(s: StoreSuite, path: string, body: unknown) {
  return s.api.post(path, body, { headers: s.storeHeaders, validateStatus: () => true })
}

/** Cart → payment session → paid in the frame → transaction attached. */
export async function paidEmbeddedCart(s: StoreSuite, scenario = "frictionless_approved", cartInput: Parameters<StoreSuite["createCart"]>[0] = {}) {
  const cart = await s.createCart(cartInput)
  const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
  const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard(scenario))
  const attached = await attachTransaction(s, session.id, transactionId)
  return { cart, session, transactionId, attached }
}

/** The order's PGS payment (admin API). */
export async function paymentOfOrder(s: StoreSuite, orderId: string) {
  const res = await s.api.get(`/admin/orders/${orderId}?fields=id,*payment_collections,*payment_collections.payments`, { headers: await s.adminHeaders() })
  const payments = res.data.order.payment_collections.flatMap((c: any) => c.payments ?? [])
  const payment = payments.find((p: any) => p.provider_id === "pp_pgs_pgs")
  if (!payment) throw new Error(`order ${orderId} has no PGS payment`)
  return payment
}

export async function adminPayment(s: StoreSuite, paymentId: string) {
  const res = await s.api.get(`/admin/payments/${paymentId}?fields=id,amount,data,captured_at,canceled_at,*captures,*refunds`, { headers: await s.adminHeaders() })
  return res.data.payment
}

export async function adminPost(s: StoreSuite, path: string, body: unknown = {}) {
  return s.api.post(path, body, { headers: await s.adminHeaders(), validateStatus: () => true })
}

export type LedgerEntry = { operation: string; transaction_type: string; transaction_id: string; parent_id: string | null; reference: string; amount: number; replay: boolean; status: string | null }

export async function ledger(sandbox: SandboxHarness): Promise<LedgerEntry[]> {
  return (await sandbox.control("GET", "/_sandbox/ledger")).body.entries
}

/** Management operations of one original transaction that the gateway approved. */
export async function approvedOperations(sandbox: SandboxHarness, parentId: string, type: "CAPTURE" | "REFUND" | "VOID") {
  return (await ledger(sandbox)).filter((e) => e.parent_id === parentId && e.transaction_type === type && !e.replay && e.status === "APPROVED")
}

export const minor = (major: number) => Math.round(major * 100)
