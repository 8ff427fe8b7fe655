/**
 * "Medusa and the gateway agree" after money moved on an order: every payment's captures and refunds in Medusa are
 * what the gateway took and gave back on that payment's transaction (read from the sandbox over HTTP), the order's
 * transaction total is their sum, and the store API shows the shopper the same outstanding amount as the admin.
 */
import { admin } from "./admin-pgs"
import { ledger, minor } from "./checkout"
import type { StoreSuite } from "./store"

const sum = (xs: Array<{ amount: number | string }> = []) => xs.reduce((n, x) => n + minor(Number(x.amount)), 0)

/** Checks the agreement (jest expectations) and answers the order's outstanding amount in major units. */
export async function expectMedusaAndGatewayAgree(s: StoreSuite, orderId: string): Promise<number> {
  const fields = "id,summary,*payment_collections,*payment_collections.payments,*payment_collections.payments.captures,*payment_collections.payments.refunds"
  const order = (await admin(s, "get", `/admin/orders/${orderId}?fields=${fields}`)).data.order
  const entries = (await ledger(s.sandbox)).filter((e) => !e.replay && e.status === "APPROVED")
  let gatewayNet = 0
  for (const payment of order.payment_collections.flatMap((c: any) => c.payments ?? [])) {
    const transactionId: string = payment.data.transaction_id
    const tx = (await s.sandbox.control("GET", `/_sandbox/transactions/${transactionId}`)).body.record
    const ops = (type: string) => entries.filter((e) => e.parent_id === transactionId && e.transaction_type === type).reduce((n, e) => n + e.amount, 0)
    const captured = tx.transaction_type === "PURCHASE" && tx.status === "APPROVED" ? tx.amount : ops("CAPTURE")
    const refunded = ops("REFUND")
    expect({ payment: payment.id, captured: sum(payment.captures), refunded: sum(payment.refunds) }).toEqual({ payment: payment.id, captured, refunded })
    gatewayNet += captured - refunded
  }
  expect(minor(Number(order.summary.transaction_total))).toBe(gatewayNet)
  const store = await s.api.get(`/store/orders/${orderId}?fields=id,summary`, { headers: s.storeHeaders })
  expect(store.data.order.summary.pending_difference).toBe(order.summary.pending_difference)
  return Number(order.summary.pending_difference)
}
