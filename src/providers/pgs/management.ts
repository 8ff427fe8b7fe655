/**
 * Capture, refund and void of a payment, as Medusa's payment module asks for them (dashboard buttons, order
 * workflows). Each is idempotent on Medusa's idempotency key, recorded in the session's data, and sent to the
 * gateway's manage endpoint with the key echoed, so a lost answer is settled by the management webhook.
 */
import type { CapturePaymentInput, CapturePaymentOutput, CancelPaymentInput, CancelPaymentOutput, RefundPaymentInput, RefundPaymentOutput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { GatewayOutcomeUnknownError, type ManageResult, type MoneyInput } from "../../gateway"
import { medusaAmountInMinorUnits } from "../../lib/medusa-amount"
import { sentByRow } from "../../lib/operation-shares"
import { capturesComplete, externalRefundOf, operationShareMinor, recordedPaymentOfSession, type ExternalRefund } from "../../modules/pgs/medusa-tables"
import { rememberLostAnswer } from "../../payments/lost-answers"
import { rememberFailedRefund } from "../../payments/refund-failed"
import { rememberVoidNotMade } from "../../payments/void-not-made"
import { rememberAmountDrift } from "../../payments/amount-drift"
import { isSingleStep, type PgsSessionData } from "../../payments/session-data"
import { gatewayTransactionType, isFailedStatus } from "../../payments/status-table"
import type { ProviderDeps } from "./deps"
import { integrationOf } from "./integrations"

export async function capture(deps: ProviderDeps, current: PgsSessionData, input: CapturePaymentInput): Promise<CapturePaymentOutput> {
  const key = input.context?.idempotency_key
  if (isSingleStep(current.transaction_type)) {
    integrationOf(current).confirmSingleStepCapture?.(current)
    return { data: current } // taken at authorization
  }
  if (key && current.captures?.some((c) => c.key === key)) return { data: current } // already done
  const parent = requireTransaction(current, "capture")
  // Medusa's capture has no check of its own (a capture recorded from the gateway does not reach the provider).
  if (await orderCanceled(deps, current))
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "This order is canceled: capturing would take the customer's money for it. If the payment is still authorized, void it in the gateway's dashboard instead: that void is recorded on the order.",
    )
  // Medusa passes no amount to capturePayment: it is on the capture row Medusa created just before (id = key).
  const rowShare = await captureRowShare(deps, key, current)
  const amount = rowShare ?? remainingToCapture(current)
  if (key && rowShare !== null && rowShare <= 0) return { data: { ...current, captures: [...(current.captures ?? []), await nothingSent(deps, current, "capture", key, rowShare)] } }
  // The capture that takes what is left is the final one: the gateway then releases nothing and closes captures.
  const final = rowShare === null ? true : await isFinalCapture(deps, key!)
  const result = await manage(deps, "CAPTURE", current, parent, amount, key, final ? { final_capture: true } : undefined)
  return { data: { ...current, captures: [...(current.captures ?? []), { ...record(key, amount, result), ...(final ? { final_capture: true } : {}) }] } }
}

export async function refund(deps: ProviderDeps, current: PgsSessionData, input: RefundPaymentInput): Promise<RefundPaymentOutput> {
  const key = input.context?.idempotency_key
  if (key && current.refunds?.some((r) => r.key === key)) return { data: current }
  const parent = requireTransaction(current, "refund")
  const amount = (await refundRowShare(deps, key, current)) ?? medusaAmountInMinorUnits(input.amount as MoneyInput, current.currency_code)
  // A refund made outside Medusa (gateway dashboard), recorded by the webhook workflow: never refund again.
  const external = await externalRefund(deps, key)
  if (external)
    return { data: { ...current, refunds: [...(current.refunds ?? []), { key: key!, transaction_id: external.transactionId, amount_minor: external.amountMinor ?? amount, kind: "external" as const }] } }
  // Medusa's refund workflow would refund, then fail on a canceled order and leave the refund off it (FRAMEWORK-NOTES
  // 67): refused before any money moves. Medusa's own order cancel refunds before it marks the order canceled.
  if (await orderCanceled(deps, current))
    throw new MedusaError(
      MedusaError.Types.NOT_ALLOWED,
      "This order is canceled, and Medusa cannot record a refund on a canceled order. Refund the payment in the gateway's dashboard instead: that refund is recorded on the order.",
    )
  if (key && amount <= 0) return { data: { ...current, refunds: [...(current.refunds ?? []), await nothingSent(deps, current, "refund", key, amount)] } }
  const result = await manage(deps, "REFUND", current, parent, amount, key).catch(async (error: unknown) => {
    // Medusa's order cancel logs this error and cancels all the same (FRAMEWORK-NOTES 68): written down for reconciliation.
    await rememberFailedRefund(deps.knex, deps.logger, current, key, amount, error)
    throw error
  })
  return { data: { ...current, refunds: [...(current.refunds ?? []), record(key, amount, result)] } }
}

export async function voidPayment(deps: ProviderDeps, current: PgsSessionData, input: CancelPaymentInput): Promise<CancelPaymentOutput> {
  if (!current.transaction_id || current.void) return { data: current } // nothing taken, or already voided
  const key = input.context?.idempotency_key
  let singleStep = false
  try {
    const found = await deps.client.status.transaction(current.transaction_id)
    if (!found) return { data: current }
    const tx = found.transaction
    if (tx.status === "CANCELED") return { data: { ...current, gateway_status: "CANCELED" } } // already done
    if (isFailedStatus(tx.status)) return { data: { ...current, gateway_status: tx.status } } // nothing to release
    const type = gatewayTransactionType(tx.transaction_type)
    singleStep = isSingleStep(type)
    if (singleStep)
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Payment ${current.transaction_id} was a ${type} (money taken in one step): it cannot be voided. Refund it instead.`)
    const result = await manage(deps, "VOID", current, tx.id, current.amount_minor, key)
    return { data: { ...current, gateway_status: "CANCELED", void: record(key, current.amount_minor, result) } }
  } catch (error) {
    // Medusa's callers log this error and go on (FRAMEWORK-NOTES 66): the admin is told on Needs attention instead.
    await rememberVoidNotMade(deps.knex, deps.logger, current, key, error, singleStep)
    throw error
  }
}

function requireTransaction(current: PgsSessionData, what: string): string {
  if (!current.transaction_id) throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `Cannot ${what}: the payment has no gateway transaction`)
  return current.transaction_id
}

/**
 * CAPTURE, REFUND or VOID. A declined operation (e.g. refund over what remains) is a MedusaError. An unknown
 * outcome (answer lost after sending) is THROWN: Medusa then deletes its capture/refund row. We chose that over
 * returning success because a missing record is repaired when the gateway's management webhook (which echoes
 * our idempotency key) arrives, while a recorded capture that never happened can never be detected. The error
 * names the idempotency key so the merchant can reconcile before retrying, and the admin's list shows it.
 */
async function manage(
  deps: ProviderDeps,
  type: "CAPTURE" | "REFUND" | "VOID",
  current: PgsSessionData,
  parent: string,
  amount: number,
  key: string | undefined,
  options?: { final_capture: true },
): Promise<ManageResult> {
  const result = await deps.client.modifications
    .manage(
      {
        transaction_type: type,
        terminal_id: current.terminal_id,
        reference: current.reference,
        parent_transaction_id: parent,
        amount,
        currency: current.currency_code.toUpperCase(),
        metadata: { medusa_payment_session_id: current.session_id },
        ...(options ? { options } : {}),
      },
      key ? { idempotencyKey: key } : {},
    )
    .catch(async (error: unknown) => {
      if (error instanceof GatewayOutcomeUnknownError) await rememberLostAnswer(deps.knex, deps.logger, error)
      throw error
    })
  if (result.kind === "applied" && result.transaction.status !== "APPROVED")
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `The gateway declined the ${type}: ${result.transaction.response_message ?? result.transaction.status}`)
  return result
}

/** The capture row's share of the payment's captures in minor units (its rows may carry a taxed fraction), or null (then what remains is captured). */
async function captureRowShare(deps: ProviderDeps, captureId: string | undefined, current: PgsSessionData): Promise<number | null> {
  if (!captureId || !deps.knex) return null
  return operationShareMinor(deps.knex, "capture", captureId, current.currency_code, sentByRow(current.captures)).catch((error: Error) => {
    deps.logger.warn(`[pgs] capture ${captureId}: amount not readable (${error.message}); capturing what remains`)
    return null
  })
}

/** Medusa's captures of the payment reach its amount with this one (unknown: not flagged, captures stay open). */
async function isFinalCapture(deps: ProviderDeps, captureId: string): Promise<boolean> {
  if (!deps.knex) return false
  return capturesComplete(deps.knex, captureId).then(
    (complete) => complete === true,
    (error: Error) => {
      deps.logger.warn(`[pgs] capture ${captureId}: captures not readable (${error.message}); not flagged final`)
      return false
    },
  )
}

async function externalRefund(deps: ProviderDeps, refundId: string | undefined): Promise<ExternalRefund | null> {
  if (!refundId || !deps.knex) return null
  return externalRefundOf(deps.knex, refundId).catch((error: Error) => {
    deps.logger.warn(`[pgs] refund ${refundId}: metadata not readable (${error.message})`)
    return null
  })
}

async function orderCanceled(deps: ProviderDeps, current: PgsSessionData): Promise<boolean> {
  if (!deps.knex) return false
  const recorded = await recordedPaymentOfSession(deps.knex, current.session_id).catch((error: Error) => {
    deps.logger.warn(`[pgs] session ${current.session_id}: its order's status is not readable (${error.message})`)
    return null
  })
  return recorded?.order_status === "canceled"
}

const remainingToCapture = (current: PgsSessionData): number =>
  current.amount_minor - (current.captures ?? []).reduce((sum, c) => sum + c.amount_minor, 0)

function record(key: string | undefined, amount: number, result: ManageResult) {
  return {
    key: key ?? result.idempotencyKey,
    transaction_id: result.kind === "applied" ? result.transaction.id : null,
    amount_minor: amount,
    kind: result.kind,
  }
}

/**
 * A row whose share is nothing: Medusa's part is a fraction of a cent that the rows before it, rounded, already
 * carried (a refund of 0.0018 EUR after one of 7.7451, sent as 7.75). The gateway refuses an amount under one minor
 * unit, so nothing is sent; the record marks the row as made. Below nothing, the gateway was sent more for the rows
 * before it than they round to (a row that counted another's fraction, which was then declined): said in the log
 * and on Needs attention (payments/amount-drift.ts).
 */
async function nothingSent(deps: ProviderDeps, current: PgsSessionData, what: "capture" | "refund", key: string, share: number) {
  if (share < 0) {
    deps.logger.warn(`[pgs] ${what} ${key}: the gateway was sent ${-share} minor unit(s) more for this payment's earlier ${what}s than Medusa's records of them round to; nothing sent for this one`)
    await rememberAmountDrift(deps.knex, deps.logger, current, what, -share)
  }
  return { key, transaction_id: null, amount_minor: 0, kind: "nothing_sent" as const }
}

/** The refund row's share of the payment's refunds in minor units (its rows may carry a taxed fraction), or null. */
async function refundRowShare(deps: ProviderDeps, refundId: string | undefined, current: PgsSessionData): Promise<number | null> {
  if (!refundId || !deps.knex) return null
  return operationShareMinor(deps.knex, "refund", refundId, current.currency_code, sentByRow(current.refunds)).catch((error: Error) => {
    deps.logger.warn(`[pgs] refund ${refundId}: Medusa's refund rows not readable (${error.message}); refunding its amount rounded`)
    return null
  })
}
