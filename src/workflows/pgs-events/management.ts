/**
 * A capture, refund or void approved at the gateway. Operations Medusa made carry Medusa's own id as the
 * idempotency key (capture id, refund id, payment id: see the provider) and are already recorded: recognised
 * and left alone. Operations made elsewhere (the gateway dashboard, another system) are recorded in Medusa once,
 * keyed by the gateway transaction id, WITHOUT asking the gateway to do them again:
 *   - capture: capturePaymentWorkflow with `is_captured` (the payment module then skips the provider);
 *   - refund: refundPaymentWorkflow with refund metadata `pgs_transaction_id` — the provider's refundPayment
 *     sees it on the refund row (id = its idempotency key) and does not call the gateway;
 *   - void: the payment is marked canceled directly (no provider call).
 * An operation of Medusa's whose process died mid-call is recorded the same way once reconciliation has removed
 * Medusa's row for it (unfinished-rows.ts, reconcile/unfinished-operations.ts).
 */
import { capturePaymentWorkflow, refundPaymentWorkflow } from "@medusajs/core-flows"
import { MathBN, Modules } from "@medusajs/framework/utils"
import type { BigNumberInput, IPaymentModuleService } from "@medusajs/framework/types"
import { IDEMPOTENCY_METADATA_KEY, type Transaction, type TransactionEventPayload } from "../../gateway"
import { sessionIdFromReference } from "../../payments/reference"
import { managementOperationOf } from "./classify"
import { isApplied, type EventContext, type EventOutcome } from "./context"
import { findPaymentForSession, leftOf, type PaymentView } from "./lookup"
import { medusaAmountOf } from "../../lib/medusa-amount"
import { recordExternalVoidWorkflow } from "./external-void"
import { canceledOrderOf, recordRefundOfCanceledOrder } from "./canceled-order-refund"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { followUpByKey, updateFollowUp } from "../../modules/pgs/follow-ups"
import { lostAnswerKey } from "../../payments/lost-answers"
import { externalRefundMetadata, externalRefundRow, recordGatewayCapture, removedOperationRow, type OperationRowDetails } from "../../modules/pgs/medusa-tables"
import { recordRepair, removeUnconfirmedCaptures, removeUnconfirmedRefund } from "./unfinished-rows"
import { settledGiveBack } from "./late-money"

/** `captured_by` (the capture's `created_by`) of a capture recorded from the gateway. */
export const externalCaptureBy = (transactionId: string) => `pgs:${transactionId}`

export async function handleManagement(ctx: EventContext, eventName: string, payload: TransactionEventPayload, receivedAt: Date): Promise<EventOutcome> {
  const operation = managementOperationOf(eventName, payload.transaction_type)
  if (!operation) return "ignored:unknown_operation"

  const read = await ctx.client.status.transaction(payload.id)
  if (!read) return "ignored:unknown_transaction"
  const tx = read.transaction
  if (tx.status !== "APPROVED") return `ignored:gateway_status_${tx.status.toLowerCase()}`
  if (tx.transaction_type.toUpperCase() !== operation) return "ignored:operation_mismatch"

  const reference = sessionIdFromReference(tx.reference) ? tx.reference : await parentReference(ctx, payload.parent_id)
  const sessionId = reference ? sessionIdFromReference(reference) : null
  if (!sessionId) return "ignored:foreign_reference"
  const key = payload.metadata?.[IDEMPOTENCY_METADATA_KEY]
  // The plugin's own give-back of money paid late: no Medusa payment holds that money, so waiting for one would leave
  // the event waiting for ever.
  if (await settledGiveBack(ctx, key, operation)) return "ignored:late_money_given_back"
  let payment = await findPaymentForSession(ctx.container, sessionId)
  // Out of order: the approval that creates the payment has not been applied yet; it re-runs this event.
  if (!payment) return "deferred:no_medusa_payment"
  // Another attempt of the same session (an earlier amount, "<session>" vs "<session>-2"): not this payment's
  // transaction. The late money given back for it (late-money.ts) is its void or refund, and must not touch this one.
  if (typeof payment.data?.reference === "string" && payment.data.reference !== reference) return "ignored:other_attempt"

  const keyWasMedusas = typeof key === "string" && madeByMedusa(payment, key)
  if (keyWasMedusas) {
    const settled = await settledMedusaCall(ctx, sessionId, payment, key as string, receivedAt)
    if (settled === "made_by_medusa") return "ignored:made_by_medusa"
    payment = settled // Medusa's call failed (its row is gone, or a void was not recorded): record the operation below.
  }
  // Medusa's call for this key lost its answer (payments/lost-answers.ts): the gateway says it happened. Read after
  // the wait above, during which the call may have lost it.
  const lost = typeof key === "string" ? await openLostAnswer(ctx, key) : null
  // Medusa's row for this very operation, removed by reconciliation after its process died (unfinished-operations.ts):
  // the gateway's record takes its place and keeps what a person gave it. Neither it nor a call of Medusa's that
  // failed is made outside Medusa, so neither replaces another row a person was told about.
  const kind = operation === "CAPTURE" ? "capture" : "refund"
  const replaced = typeof key === "string" && operation !== "VOID" ? await removedOperationRow(knexOf(ctx), kind, key) : null
  const outcome = await recordOperation(ctx, operation, tx, payment, { sessionId, replaced, outside: !keyWasMedusas && !replaced && !lost })
  // A void of the payment also settles a lost void answer of it: a person voided it in the gateway's dashboard.
  // Closed once Medusa holds the operation (not on ignored:already_captured: Medusa holds another capture).
  const holds = isApplied(outcome) || outcome === "ignored:already_recorded" || outcome === "ignored:already_canceled"
  const settled = holds ? (lost ?? (operation === "VOID" ? await openLostAnswer(ctx, payment.id) : null)) : null
  if (settled) await closeLostAnswer(ctx, settled, tx.id)
  // Its record, also when a run that died before writing it had recorded the operation already.
  if (replaced && holds) await recordRepair(ctx, kind, key as string, tx, payment)
  return outcome
}

/** Records the gateway's operation in Medusa as made at the gateway (see the file's comment), unless it is already. */
async function recordOperation(
  ctx: EventContext,
  operation: "CAPTURE" | "REFUND" | "VOID",
  tx: Transaction,
  payment: PaymentView,
  { sessionId, replaced, outside }: { sessionId: string; replaced: OperationRowDetails | null; outside: boolean },
): Promise<EventOutcome> {
  switch (operation) {
    case "CAPTURE":
      if (payment.captures.some((c) => c.created_by === externalCaptureBy(tx.id))) {
        await recordGatewayCapture(knexOf(ctx), payment.id, externalCaptureBy(tx.id), tx.id, tx.amount) // if a run died before it
        return "ignored:already_recorded"
      }
      if (payment.captured_at && !replaced) return "ignored:already_captured"
      // Medusa counted the replaced row when a later capture completed the payment: it is captured again once the
      // gateway's capture takes the row's place (Medusa's capture stops at a payment marked captured).
      if (payment.captured_at) await ctx.container.resolve<PaymentUpdater>(Modules.PAYMENT).updatePayment({ id: payment.id, captured_at: null })
      if (outside) await removeUnconfirmedCaptures(ctx, payment, `The gateway's capture ${tx.id} took its place.`)
      const earlier = new Set(payment.captures.map((c) => c.id))
      const amount = await recordedAmount(ctx, tx, "capture", outside ? sessionId : null, payment)
      await capturePaymentWorkflow(ctx.container).run({
        // is_captured is read by the payment module but missing from the workflow's input type.
        input: { payment_id: payment.id, amount, captured_by: externalCaptureBy(tx.id), is_captured: true } as { payment_id: string },
      })
      await markExternalCapture(ctx, payment.id, earlier, externalCaptureBy(tx.id))
      await recordGatewayCapture(knexOf(ctx), payment.id, externalCaptureBy(tx.id), tx.id, tx.amount)
      return "applied:external_capture"
    case "REFUND": {
      const recordedRow = externalRefundRow(payment.refunds, tx.id)
      const recorded = !!recordedRow
      // On an order Medusa canceled, its refund workflow fails after refunding: recorded apart, and finished there if a run died.
      const canceledOrder = await canceledOrderOf(ctx, sessionId)
      if (recorded && !canceledOrder) return "ignored:already_recorded"
      // A person refunding in the gateway's dashboard what Needs attention listed: this refund takes that row's place.
      if (outside && !recorded) await removeUnconfirmedRefund(ctx, payment, tx.amount, `The gateway's refund ${tx.id} took its place.`)
      const details = {
        // A refund recorded by a run that died before the order's record: its own amount.
        amount: recordedRow ? MathBN.convert(recordedRow.raw_amount as BigNumberInput).toFixed() : await recordedAmount(ctx, tx, "refund", outside ? sessionId : null, payment),
        note: replaced?.note ?? `Refunded at the gateway (transaction ${tx.id})`,
        created_by: replaced?.created_by ?? undefined,
        refund_reason_id: replaced?.refund_reason_id ?? undefined,
      }
      if (canceledOrder) return recordRefundOfCanceledOrder(ctx, payment, canceledOrder, { transactionId: tx.id, amountMinor: tx.amount, ...details })
      // Medusa's refundPayment always calls the provider; the provider's refundPayment reads this refund row
      // (id = its idempotency key), finds the metadata and returns without calling the gateway (no second refund).
      await refundPaymentWorkflow(ctx.container).run({
        // metadata reaches the refund row (payment module) but is missing from the workflow's input type.
        input: { payment_id: payment.id, ...details, metadata: externalRefundMetadata(tx.id, tx.amount) } as { payment_id: string },
      })
      return "applied:external_refund"
    }
    case "VOID": {
      if (payment.canceled_at) return "ignored:already_canceled"
      // The gateway voids only an authorization nothing was captured from: a capture row it never confirmed goes too.
      await removeUnconfirmedCaptures(ctx, payment, `The payment was voided at the gateway (transaction ${tx.id}): no money was captured.`)
      await recordExternalVoidWorkflow(ctx.container).run({ input: { paymentId: payment.id, collectionId: payment.payment_collection_id } })
      return "applied:external_void"
    }
  }
}

const MEDUSA_CALL_POLL_MS = 250

/**
 * The gateway may send the webhook of a capture, refund or void while Medusa's call for it is still waiting for the
 * answer (a slow or lost response): Medusa's row (id = key; a void's key is the payment id) exists, but the provider
 * has not recorded the key in the payment's data yet. If that call then fails, Medusa deletes its row and the
 * operation would be lost. So wait until the provider recorded the key (made by Medusa: for a void, also a payment
 * Medusa canceled), or the call failed: its row is gone, or its answer was lost (the provider lists that first,
 * then Medusa deletes the row; a void has only that sign). Either returns the payment as it is now, to be recorded.
 * The wait ends when the call would have ended (option medusaCallWaitSeconds, 58 s by default: longer than
 * the manage timeout, modules/pgs/options.ts), counted from its row (a void's, from the webhook's arrival): a row
 * older than that was left by a process that died (the retry job runs its webhook minutes later), which
 * reconciliation settles, so nothing holds a processing slot for it; a call that outlasts it and then loses its
 * answer has its webhook run again (lost-answers.ts). A void has no row for reconciliation to find: past its wait,
 * the gateway's void is recorded (recording it again changes nothing).
 */
async function settledMedusaCall(ctx: EventContext, sessionId: string, payment: PaymentView, key: string, receivedAt: Date): Promise<"made_by_medusa" | PaymentView> {
  const isVoid = payment.id === key
  const waitMs = ctx.pgs.followUpSettings().medusaCallWaitSeconds * 1000
  const row = [...payment.captures, ...payment.refunds].find((r) => r.id === key)
  const written = row ? new Date(row.created_at).getTime() : NaN
  const deadline = (Number.isFinite(written) ? written : receivedAt.getTime()) + waitMs
  let current: PaymentView | null = payment
  while (current) {
    // Medusa's call succeeded (the usual case): nothing more to read. A failed call never has its key recorded.
    if (providerRecorded(current, key)) return "made_by_medusa"
    const lost = await openLostAnswer(ctx, key)
    if (lost) {
      if (isVoid || !madeByMedusa(current, key)) return current
      // Medusa deletes the row right after the provider listed it: wait for that, not for ever.
      if (Date.now() - new Date(lost.created_at).getTime() > waitMs)
        throw new Error(`Medusa's row ${key} outlived its call whose answer was lost; the retry job or reconciliation settles it`)
    } else {
      if (isVoid && current.canceled_at) return "made_by_medusa"
      if (!madeByMedusa(current, key)) return current
      if (Date.now() > deadline) {
        if (isVoid) return current
        ctx.logger.warn(`PGS: Medusa's operation ${key} on payment ${current.id} did not finish in time; treating the webhook as its own (reconciliation settles the row)`)
        return "made_by_medusa"
      }
    }
    await new Promise((resolve) => setTimeout(resolve, MEDUSA_CALL_POLL_MS))
    current = await findPaymentForSession(ctx.container, sessionId)
  }
  return "made_by_medusa"
}

function providerRecorded(payment: PaymentView, key: string): boolean {
  const data = payment.data ?? {}
  const keyed = (list: unknown) => Array.isArray(list) && list.some((entry) => (entry as { key?: unknown } | null)?.key === key)
  return keyed(data.captures) || keyed(data.refunds) || (data.void as { key?: unknown } | null | undefined)?.key === key
}

function madeByMedusa(payment: PaymentView, key: string): boolean {
  return payment.id === key || payment.captures.some((c) => c.id === key) || payment.refunds.some((r) => r.id === key)
}

/** Management transactions normally carry the original's reference; if not, the parent's tells the attempt. */
async function parentReference(ctx: EventContext, parentId: string | null): Promise<string | null> {
  if (!parentId) return null
  const parent = await ctx.client.status.transaction(parentId)
  return parent ? parent.transaction.reference : null
}

// captured_at reaches the payment row (updatePayment passes its input through) but is missing from the input type.
type PaymentUpdater = IPaymentModuleService & { updatePayment(data: { id: string; captured_at: null }): Promise<unknown> }

type CaptureWriter = IPaymentModuleService & { updateCaptures(data: { id: string; created_by: string }): Promise<unknown> }

/**
 * Medusa before 2.21 drops `captured_by` (its createCapture_ passed it to a column that does not exist), and the
 * check above needs it to recognise this capture if the event is processed again: the new capture is marked here.
 * On 2.21 and later it already carries it, and nothing is written. FRAMEWORK-NOTES 42.
 */
async function markExternalCapture(ctx: EventContext, paymentId: string, earlier: Set<string>, by: string) {
  const paymentModule = ctx.container.resolve<CaptureWriter>(Modules.PAYMENT)
  const captures = await paymentModule.listCaptures({ payment_id: paymentId })
  const recorded = captures.find((c) => !earlier.has(c.id) && !c.created_by)
  if (recorded) await paymentModule.updateCaptures({ id: recorded.id, created_by: by })
}

const knexOf = (ctx: EventContext) => ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)

type LostAnswer = NonNullable<Awaited<ReturnType<typeof followUpByKey>>>

/** The open Needs attention item of Medusa's call with this key whose answer was lost, if there is one. */
async function openLostAnswer(ctx: EventContext, idempotencyKey: string): Promise<LostAnswer | null> {
  const row = await followUpByKey(knexOf(ctx), lostAnswerKey(idempotencyKey))
  return row && row.state !== "done" ? row : null
}

/** Closed once the gateway's operation is recorded: the gateway says it happened. */
async function closeLostAnswer(ctx: EventContext, row: LostAnswer, transactionId: string): Promise<void> {
  const since = row.kind === "void_not_made" ? "It has since been voided at the gateway" : "The gateway has since confirmed it"
  const note = `${row.note ?? ""} ${since} (transaction ${transactionId}); it is recorded here.`.trim()
  await updateFollowUp(knexOf(ctx), row.id, { state: "done", resolved_at: new Date(), note })
}

/**
 * The gateway's amount as Medusa records it: Medusa's exact remainder to capture or refund when the gateway's amount
 * is that remainder rounded (lib/medusa-amount.ts). Read again (`rereadFor`: the session) after rows were removed.
 */
async function recordedAmount(ctx: EventContext, tx: Transaction, kind: "capture" | "refund", rereadFor: string | null, payment: PaymentView): Promise<string> {
  const now = rereadFor ? ((await findPaymentForSession(ctx.container, rereadFor)) ?? payment) : payment
  return medusaAmountOf(tx.amount, tx.currency, leftOf(now)[kind])
}
