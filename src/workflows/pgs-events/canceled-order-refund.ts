/**
 * A refund made at the gateway of a payment whose order Medusa has canceled: money captured at the gateway while the
 * order was being canceled (its void was declined: payments/void-not-made.ts), then given back there.
 * Medusa's refundPaymentWorkflow cannot record it: it writes the refund row, then refuses a credit line on a canceled
 * order and fails, undoing the order's transaction (FRAMEWORK-NOTES 67). So it is recorded here the way that workflow
 * records a refund, without its check: the payment's refund row, a credit line for what the order did not already
 * owe the customer, and the order's refund transaction, written last (then Medusa's payment.refunded event): a refund
 * row that has its transaction is recorded, so a run that died halfway is finished by the next one and a refund
 * Medusa recorded while the order was live is left alone. A refund the cancel asked for and did not get is settled
 * first, and its "Refund not made" item then says what is left, or closes (../refund-not-made.ts).
 */
import { ChangeActionType, ContainerRegistrationKeys, MathBN, Modules, OrderChangeStatus, OrderChangeType, PaymentEvents } from "@medusajs/framework/utils"
import type { BigNumberInput, IEventBusModuleService, IOrderModuleService, IPaymentModuleService } from "@medusajs/framework/types"
import { looseQuery } from "../../lib/loose-query"
import { externalRefundMetadata, externalRefundRow, recordedPaymentOfSession } from "../../modules/pgs/medusa-tables"
import { canceledPayments, settleRefundNotMade } from "../refund-not-made"
import type { EventContext, EventOutcome } from "./context"
import type { PaymentView } from "./lookup"

/** `amount` in major units, as Medusa takes it ("25.50"). */
export type GatewayRefund = { transactionId: string; amountMinor: number; amount: string; note: string; created_by?: string; refund_reason_id?: string }

// listOrderCreditLines is generated for the module's model but missing from its interface.
type OrderModule = IOrderModuleService & { listOrderCreditLines(filters: object, config: object): Promise<Array<{ id: string }>> }

/** The order of the session's payment when Medusa has canceled it, else null (one read). */
export async function canceledOrderOf(ctx: EventContext, sessionId: string): Promise<string | null> {
  const recorded = await recordedPaymentOfSession(ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION), sessionId)
  return recorded?.order_status === "canceled" ? recorded.order_id : null
}

export async function recordRefundOfCanceledOrder(ctx: EventContext, payment: PaymentView, orderId: string, refund: GatewayRefund): Promise<EventOutcome> {
  const orders = ctx.container.resolve<OrderModule>(Modules.ORDER)
  // A refund the cancel asked for and did not get leaves a transaction that would count it refunded: gone first.
  await settleRefundOf(ctx, orderId, payment.id)
  const rowId = externalRefundRow(payment.refunds, refund.transactionId)?.id ?? (await refundRow(ctx, payment, refund))
  const [transaction] = await orders.listOrderTransactions({ order_id: orderId, reference: "refund", reference_id: rowId }, { select: ["id"] })
  if (transaction) {
    // A run that died after recording it, before the item was settled.
    await settleRefundOf(ctx, orderId, payment.id, refund.transactionId)
    return "ignored:already_recorded"
  }
  const [creditLine] = await orders.listOrderCreditLines({ order_id: orderId, reference_id: rowId }, { select: ["id"] })
  const credit = creditLine ? 0 : await creditLineAmount(ctx, orderId, refund.amount)
  if (MathBN.gt(credit, 0)) await addCreditLine(ctx, orders, orderId, rowId, credit)
  await orders.addOrderTransactions({ order_id: orderId, amount: MathBN.mult(refund.amount, -1), currency_code: payment.currency_code, reference: "refund", reference_id: rowId })
  // Last, as Medusa's workflow does: a subscriber reads the order with its refund.
  await ctx.container.resolve<IEventBusModuleService>(Modules.EVENT_BUS).emit({ name: PaymentEvents.REFUNDED, data: { id: payment.id } })
  await settleRefundOf(ctx, orderId, payment.id, refund.transactionId)
  return "applied:external_refund"
}

async function settleRefundOf(ctx: EventContext, orderId: string, paymentId: string, refundedBy?: string): Promise<void> {
  const [payment] = await canceledPayments(ctx.container, orderId, paymentId)
  if (payment) await settleRefundNotMade(ctx.container, payment, refundedBy)
}

/** Writes the payment's refund row; the provider's refundPayment finds its metadata and does not call the gateway. */
async function refundRow(ctx: EventContext, payment: PaymentView, refund: GatewayRefund): Promise<string> {
  const payments = ctx.container.resolve<IPaymentModuleService>(Modules.PAYMENT)
  const after = (await payments.refundPayment({
    payment_id: payment.id,
    amount: refund.amount,
    note: refund.note,
    created_by: refund.created_by,
    refund_reason_id: refund.refund_reason_id,
    metadata: externalRefundMetadata(refund.transactionId, refund.amountMinor),
  } as Parameters<IPaymentModuleService["refundPayment"]>[0])) as unknown as Pick<PaymentView, "refunds">
  const row = externalRefundRow(after.refunds, refund.transactionId)
  if (!row) throw new Error(`the refund of gateway transaction ${refund.transactionId} is not on payment ${payment.id} after recording it`)
  return row.id
}

/** As refundPaymentWorkflow: the part of the refund beyond what the order already owed the customer. */
async function creditLineAmount(ctx: EventContext, orderId: string, amount: BigNumberInput): Promise<BigNumberInput> {
  const { data } = await looseQuery(ctx.container).graph({ entity: "order", fields: ["id", "summary"], filters: { id: orderId } })
  const summary = (data[0] as { summary?: { raw_pending_difference?: BigNumberInput; pending_difference?: BigNumberInput } } | undefined)?.summary
  const pending = summary?.raw_pending_difference ?? summary?.pending_difference ?? 0
  if (!MathBN.lt(pending, 0)) return amount
  const owed = MathBN.mult(pending, -1)
  return MathBN.gt(amount, owed) ? MathBN.sub(amount, owed) : 0
}

/**
 * What createOrderRefundCreditLinesWorkflow does, without its check that the order is not canceled. A change of ours
 * left pending by a run that died is confirmed; another open change of the order (an edit requested before the
 * cancel) would refuse a new one, so the credit line is left out and said in the log: the refund itself is recorded.
 */
async function addCreditLine(ctx: EventContext, orders: OrderModule, orderId: string, rowId: string, amount: BigNumberInput): Promise<void> {
  const open = await orders.listOrderChanges({ order_id: orderId, status: [OrderChangeStatus.PENDING, OrderChangeStatus.REQUESTED] }, { relations: ["actions"] })
  const ours = open.find((c) => c.actions?.some((a) => a.reference_id === rowId))
  if (ours) return void (await orders.confirmOrderChange({ id: ours.id }))
  if (open.length) {
    ctx.logger.warn(`[pgs] order ${orderId} has an open change: the credit line of refund ${rowId} (${amount}) is not added; the refund and its transaction are recorded`)
    return
  }
  const change = await orders.createOrderChange({ order_id: orderId, change_type: OrderChangeType.CREDIT_LINE })
  try {
    await orders.addOrderAction({
      order_change_id: change.id,
      order_id: orderId,
      version: change.version,
      action: ChangeActionType.CREDIT_LINE_ADD,
      reference: "refund",
      reference_id: rowId,
      amount,
    })
    await orders.confirmOrderChange({ id: change.id })
  } catch (error) {
    // As the workflow's compensation: a pending change left behind would refuse every later change of the order.
    await orders.deleteOrderChanges([change.id]).catch(() => undefined)
    throw error
  }
}
