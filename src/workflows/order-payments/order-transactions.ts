/**
 * The order's transactions for a payment's captures. Medusa's order summary (paid total, pending difference) counts
 * order transactions, which cart completion and capturePaymentWorkflow add for each capture; a cart-less
 * collection's payment captured at authorization (a PURCHASE) gets none from processPaymentWorkflow. Added here
 * with the same shape (reference "capture", reference_id the capture id), only those missing, so repeating is safe.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { Modules } from "@medusajs/framework/utils"
import { looseQuery } from "../../lib/loose-query"

type OrderModule = {
  listOrderTransactions(filters: Record<string, unknown>, config: { select: string[] }): Promise<Array<{ reference_id: string }>>
  addOrderTransactions(data: Array<{ order_id: string; amount: unknown; currency_code: string; reference: string; reference_id: string }>): Promise<unknown>
}

type PaymentRow = { id: string; currency_code: string; captures?: Array<{ id: string; amount: unknown; raw_amount?: unknown }> | null }

export async function recordCapturesOnOrder(container: MedusaContainer, orderId: string, paymentId: string): Promise<number> {
  const { data } = await looseQuery(container).graph({
    entity: "payment",
    fields: ["id", "currency_code", "captures.id", "captures.amount", "captures.raw_amount"],
    filters: { id: paymentId },
  })
  const payment = data[0] as PaymentRow | undefined
  const captures = payment?.captures ?? []
  if (!payment || !captures.length) return 0
  const orders = container.resolve<OrderModule>(Modules.ORDER)
  const existing = await orders.listOrderTransactions({ order_id: orderId, reference: "capture", reference_id: captures.map((c) => c.id) }, { select: ["reference_id"] })
  const known = new Set(existing.map((t) => t.reference_id))
  const missing = captures.filter((c) => !known.has(c.id))
  if (!missing.length) return 0
  await orders.addOrderTransactions(
    missing.map((c) => ({ order_id: orderId, amount: c.raw_amount ?? c.amount, currency_code: payment.currency_code, reference: "capture", reference_id: c.id })),
  )
  return missing.length
}
