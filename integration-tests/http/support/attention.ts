/**
 * What lands on the admin's "Needs attention" page, made the real way: bank-redirect checkouts whose webhooks never
 * arrive, and the reconciliation job run for a later time instead of waiting for it.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import reconcilePgsTransactions from "../../../src/jobs/reconcile-pgs-transactions"
import { paidOrder } from "./admin-pgs"
import { adminPost, paymentOfOrder } from "./checkout"
import { providerId, startRedirect } from "./redirect"
import { manageAtGateway, processedEvent, waitFor } from "./webhooks"
export { manageAtGateway }
import type { StoreSuite } from "./store"
import { sessionFields } from "../../support/session-fields"

export const MINUTE = 60_000
export const HOUR = 60 * MINUTE
const BANK = "pgs-open-banking"

export const runReconcile = (s: StoreSuite, msFromNow: number) => reconcilePgsTransactions(s.container(), { scheduledFor: new Date(Date.now() + msFromNow) })

/** The sandbox decides a pending transaction (the shopper's bank answers). */
export const decideAtGateway = (s: StoreSuite, transactionId: string, status: "APPROVED" | "DECLINED") =>
  s.sandbox.control("POST", `/_sandbox/transactions/${transactionId}/outcome`, { status })

/** The gateway cannot reach the store: no webhook arrives until `reachable()`. */
export async function unreachable(s: StoreSuite) {
  await s.sandbox.control("DELETE", "/_sandbox/webhooks")
  return { reachable: () => s.sandbox.control("POST", "/_sandbox/webhooks", { url: s.webhookUrl }) }
}

/** A bank-redirect order awaiting its payment: the shopper came back before the bank decided. */
export async function orderAwaitingBank(s: StoreSuite) {
  const r = await startRedirect(s, BANK)
  const done = await s.completeCart(r.cartId)
  if (done.data?.type !== "order") throw new Error(`no order: ${JSON.stringify(done.data).slice(0, 300)}`)
  return { ...r, orderId: done.data.order.id as string }
}

/** The shopper switched to another method, then the bank paid after all: money no order keeps (once reconciled). */
export async function paidAfterTheCartMovedOn(s: StoreSuite) {
  const r = await startRedirect(s, BANK)
  await s.initiatePaymentSession(r.cartId, providerId("pgs-wallets"))
  await decideAtGateway(s, r.transactionId, "APPROVED")
  return r
}


/**
 * A captured order with a 4.00 EUR refund Medusa recorded that the gateway never confirmed: the refund row Medusa
 * writes before it calls the provider, as a server killed during the call leaves it (FRAMEWORK-NOTES 57), and the
 * reconciliation run that puts it on Needs attention.
 */
export async function unconfirmedRefund(s: StoreSuite) {
  const { orderId, transactionId, session } = await paidOrder(s)
  const payment = await paymentOfOrder(s, orderId)
  if ((await adminPost(s, `/admin/payments/${payment.id}/capture`, {})).status !== 200) throw new Error("capture refused")
  const payments = s.container().resolve(Modules.PAYMENT) as unknown as { createRefunds(data: object[]): Promise<Array<{ id: string }>> }
  const [refund] = await payments.createRefunds([{ payment_id: payment.id, amount: 4, note: "Scarf returned", created_by: "user_shop_admin" }])
  await runReconcile(s, 10 * MINUTE)
  return { orderId, transactionId, session, paymentId: payment.id as string, refundId: refund!.id }
}

/**
 * A person captures in the gateway's dashboard; its message is still on its way when the order is canceled in Medusa.
 * Medusa's order cancel logs the declined void and goes on: the order is canceled, the money stays captured, and
 * "Void not made" is on Needs attention. The capture's message is then let through.
 */
export async function orderCanceledWhileCapturedAtGateway(s: StoreSuite) {
  const paid = await paidOrder(s)
  const payment = await paymentOfOrder(s, paid.orderId)
  await s.sandbox.control("POST", "/_sandbox/settings", { webhooks_held: true })
  try {
    await manageAtGateway(s, paid.session, paid.transactionId, "CAPTURE", sessionFields(paid.session.data).amount_minor)
    if ((await adminPost(s, `/admin/orders/${paid.orderId}/cancel`, {})).status !== 200) throw new Error("the order cancel was refused")
  } finally {
    await s.sandbox.control("POST", "/_sandbox/settings", { webhooks_held: false })
  }
  return { ...paid, payment }
}

/**
 * A captured order canceled while 5.00 of it had been refunded in the gateway's dashboard, that refund's message still
 * in the gateway's queue: the gateway declines the cancel's refund of all 25.50 and Medusa cancels all the same.
 * Returns once the plugin listed the refund not made and the 5.00 is recorded on the order (20.50 left).
 */
export async function orderCanceledWithRefundDeclined(s: StoreSuite) {
  const paid = await paidOrder(s)
  const payment = await paymentOfOrder(s, paid.orderId)
  const captureId = await manageAtGateway(s, paid.session, paid.transactionId, "CAPTURE", sessionFields(paid.session.data).amount_minor)
  await processedEvent(s, captureId)
  await s.sandbox.control("POST", "/_sandbox/settings", { webhooks_held: true })
  let partId: string
  try {
    partId = await manageAtGateway(s, paid.session, paid.transactionId, "REFUND", 500)
    if ((await adminPost(s, `/admin/orders/${paid.orderId}/cancel`, {})).status !== 200) throw new Error("the order cancel was refused")
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    await waitFor(() => knex("pgs_follow_up").where({ key: `cancel-refund:${payment.id}` }).first("id"), { what: "the refund not made, listed" })
  } finally {
    await s.sandbox.control("POST", "/_sandbox/settings", { webhooks_held: false })
  }
  await processedEvent(s, partId!)
  return { ...paid, payment }
}

