/**
 * A capture, refund or void approved at the gateway. Operations Medusa made carry Medusa's own id as the
 * idempotency key (capture id, refund id, payment id: see the provider) and are already recorded: recognised
 * and left alone. Operations made elsewhere (the gateway dashboard, another system) are recorded in Medusa once,
 * keyed by the gateway transaction id, WITHOUT asking the gateway to do them again:
 *   - capture: capturePaymentWorkflow with `is_captured` (the payment module then skips the provider);
 *   - refund: refundPaymentWorkflow with refund metadata `pgs_transaction_id` — the provider's refundPayment
 *     sees it on the refund row (id = its idempotency key) and does not call the gateway;
 *   - void: the payment is marked canceled directly (no provider call).
 */
import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/core-flows"
import { Modules, PaymentCollectionStatus } from "@medusajs/framework/utils"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import { fromMinorUnits, IDEMPOTENCY_METADATA_KEY, type TransactionEventPayload } from "../../gateway"
import { sessionIdFromReference } from "../../providers/pgs/reference"
import { managementOperationOf } from "./classify"
import type { EventContext, EventOutcome } from "./context"
import { findPaymentForSession, type PaymentView } from "./lookup"

/** Refund metadata marking a refund that already happened at the gateway (contract with the provider). */
export const EXTERNAL_REFUND_METADATA_KEY = "pgs_transaction_id"
/**
 * Medusa's refundPayment always calls the provider, so an outside refund can be recorded only once the provider's
 * refundPayment reads the refund row (id = its idempotency key) and, finding this metadata, returns without
 * calling the gateway. Until then recording it would refund the shopper a second time.
 */
const PROVIDER_SKIPS_EXTERNAL_REFUNDS: boolean = false
/** `captured_by` of a capture recorded from the gateway. */
export const externalCaptureBy = (transactionId: string) => `pgs:${transactionId}`

export async function handleManagement(ctx: EventContext, eventName: string, payload: TransactionEventPayload): Promise<EventOutcome> {
  const operation = managementOperationOf(eventName, payload.transaction_type)
  if (!operation) return "ignored:unknown_operation"

  const read = await ctx.client.status.transaction(payload.id)
  if (!read) return "ignored:unknown_transaction"
  const tx = read.transaction
  if (tx.status !== "APPROVED") return `ignored:gateway_status_${tx.status.toLowerCase()}`
  if (tx.transaction_type.toUpperCase() !== operation) return "ignored:operation_mismatch"

  const sessionId = sessionIdFromReference(tx.reference) ?? (await parentSessionId(ctx, payload.parent_id))
  if (!sessionId) return "ignored:foreign_reference"
  const payment = await findPaymentForSession(ctx.container, sessionId)
  // Out of order: the approval that creates the payment has not been applied yet; it re-runs this event.
  if (!payment) return "deferred:no_medusa_payment"

  const key = payload.metadata?.[IDEMPOTENCY_METADATA_KEY]
  if (typeof key === "string" && madeByMedusa(payment, key)) return "ignored:made_by_medusa"

  const amount = fromMinorUnits(tx.amount, tx.currency)
  switch (operation) {
    case "CAPTURE":
      if (payment.captures.some((c) => c.created_by === externalCaptureBy(tx.id))) return "ignored:already_recorded"
      if (payment.captured_at) return "ignored:already_captured"
      await capturePaymentWorkflow(ctx.container).run({
        // is_captured is read by the payment module but missing from the workflow's input type.
        input: { payment_id: payment.id, amount, captured_by: externalCaptureBy(tx.id), is_captured: true } as { payment_id: string },
      })
      return "applied:external_capture"
    case "REFUND":
      if (payment.refunds.some((r) => r.metadata?.[EXTERNAL_REFUND_METADATA_KEY] === tx.id)) return "ignored:already_recorded"
      if (!PROVIDER_SKIPS_EXTERNAL_REFUNDS) {
        ctx.logger.warn(`PGS: refund ${tx.id} of payment ${payment.id} was made at the gateway; record it in Medusa by hand`)
        return "ignored:external_refund_not_recorded"
      }
      await refundPaymentWorkflow(ctx.container).run({
        // metadata reaches the refund row (payment module) but is missing from the workflow's input type.
        input: {
          payment_id: payment.id,
          amount,
          note: `Refunded at the gateway (transaction ${tx.id})`,
          metadata: { [EXTERNAL_REFUND_METADATA_KEY]: tx.id },
        } as { payment_id: string },
      })
      return "applied:external_refund"
    case "VOID": {
      if (payment.canceled_at) return "ignored:already_canceled"
      const paymentModule = ctx.container.resolve<IPaymentModuleService>(Modules.PAYMENT)
      // canceled_at is written by the module's own cancelPayment; UpdatePaymentDTO does not list it.
      await paymentModule.updatePayment({ id: payment.id, canceled_at: new Date() } as { id: string })
      await paymentModule.updatePaymentCollections(payment.payment_collection_id, { status: PaymentCollectionStatus.CANCELED })
      return "applied:external_void"
    }
  }
}

function madeByMedusa(payment: PaymentView, key: string): boolean {
  return payment.id === key || payment.captures.some((c) => c.id === key) || payment.refunds.some((r) => r.id === key)
}

/** Management transactions normally carry the original's reference; if not, the parent's tells the session. */
async function parentSessionId(ctx: EventContext, parentId: string | null): Promise<string | null> {
  if (!parentId) return null
  const parent = await ctx.client.status.transaction(parentId)
  return parent ? sessionIdFromReference(parent.transaction.reference) : null
}
