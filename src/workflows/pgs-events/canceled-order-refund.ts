/**
 * A refund made at the gateway of a payment whose order Medusa has canceled: money captured at the gateway while the
 * order was being canceled (its void was declined: payments/void-not-made.ts), then given back there.
 * Medusa's refundPaymentWorkflow cannot record it: it writes the refund row, then refuses a credit line on a canceled
 * order and fails, undoing the order's transaction (FRAMEWORK-NOTES 67). So it is recorded here as Medusa's own order
 * cancel records a refund: the payment's refund row, the order's refund transaction and a credit line of the same
 * amount. Each is skipped when it exists, so a run that died halfway is finished by the next one.
 */
import { ChangeActionType, MathBN, Modules, OrderChangeType } from "@medusajs/framework/utils"
import type { IOrderModuleService, IPaymentModuleService } from "@medusajs/framework/types"
import { EXTERNAL_REFUND_METADATA_KEY } from "../../modules/pgs/medusa-tables"
import type { EventContext, EventOutcome } from "./context"
import { findOrderIdForCollection, orderStatus, type PaymentView } from "./lookup"

/** `amount` in major units, as Medusa takes it ("25.50"). */
export type GatewayRefund = { transactionId: string; amount: string; note: string; created_by?: string; refund_reason_id?: string }

type OrderModule = IOrderModuleService & { listOrderCreditLines(filters: object, config: object): Promise<Array<{ id: string }>> }

/** The payment's order when Medusa has canceled it, else null. */
export async function canceledOrderOf(ctx: EventContext, payment: PaymentView): Promise<string | null> {
  const orderId = await findOrderIdForCollection(ctx.container, payment.payment_collection_id)
  return orderId && (await orderStatus(ctx.container, orderId)) === "canceled" ? orderId : null
}

export async function recordRefundOfCanceledOrder(ctx: EventContext, payment: PaymentView, orderId: string, refund: GatewayRefund): Promise<EventOutcome> {
  const payments = ctx.container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  // listOrderCreditLines is generated for the module's model but missing from its interface.
  const orders = ctx.container.resolve<OrderModule>(Modules.ORDER)
  const madeAt = (p: Pick<PaymentView, "refunds">) => p.refunds.find((r) => r.metadata?.[EXTERNAL_REFUND_METADATA_KEY] === refund.transactionId)
  let row = madeAt(payment)
  let wrote = false
  if (!row) {
    // The provider's refundPayment finds this metadata on the row and does not call the gateway (no second refund).
    const after = await payments.refundPayment({
      payment_id: payment.id,
      amount: refund.amount,
      note: refund.note,
      created_by: refund.created_by,
      refund_reason_id: refund.refund_reason_id,
      metadata: { [EXTERNAL_REFUND_METADATA_KEY]: refund.transactionId },
    } as Parameters<IPaymentModuleService["refundPayment"]>[0])
    row = madeAt(after as unknown as Pick<PaymentView, "refunds">)
    if (!row) throw new Error(`the refund of gateway transaction ${refund.transactionId} was not found on payment ${payment.id} after recording it`)
    wrote = true
  }
  const [transaction] = await orders.listOrderTransactions({ order_id: orderId, reference: "refund", reference_id: row.id }, { select: ["id"] })
  if (!transaction) {
    await orders.addOrderTransactions({ order_id: orderId, amount: MathBN.mult(refund.amount, -1), currency_code: payment.currency_code, reference: "refund", reference_id: row.id })
    wrote = true
  }
  const [creditLine] = await orders.listOrderCreditLines({ order_id: orderId, reference_id: row.id }, { select: ["id"] })
  if (!creditLine) {
    // What createOrderRefundCreditLinesWorkflow does, without its check that the order is not canceled.
    const change = await orders.createOrderChange({ order_id: orderId, change_type: OrderChangeType.CREDIT_LINE })
    await orders.addOrderAction({
      order_change_id: change.id,
      order_id: orderId,
      version: change.version,
      action: ChangeActionType.CREDIT_LINE_ADD,
      reference: "refund",
      reference_id: row.id,
      amount: refund.amount,
    })
    await orders.confirmOrderChange({ id: change.id })
    wrote = true
  }
  return wrote ? "applied:external_refund" : "ignored:already_recorded"
}
