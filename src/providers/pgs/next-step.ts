/**
 * An execution result (authorize, request-authentication, authentication-completed) → what the session records:
 * the transaction id, the next step for the browser (without payment_data: that stays sealed), and the
 * Medusa status from the one status table.
 */
import { MedusaError, type PaymentSessionStatus } from "@medusajs/framework/utils"
import { challengeForm, FINAL_STATUSES, fingerprintForm, outcomeOf, type ExecutionResult, type Transaction } from "../../gateway"
import { isFailedStatus, medusaStatusFor } from "../../payments/status-table"
import type { GatewayTransactionType, NextAction, PgsSessionData } from "../../payments/session-data"

export type StepOutcome = {
  status: PaymentSessionStatus
  patch: Pick<PgsSessionData, "transaction_id" | "gateway_status" | "next_action" | "error">
  /** 3-D Secure payment_data to keep sealed for the next call (null: clear it; undefined: keep what is sealed). */
  paymentData: string | null | undefined
}

/** A finished transaction: status from the table, a shopper-safe message when it failed. */
export function finishedOutcome(tx: Transaction, transactionType: GatewayTransactionType, awaitingShopper = false): StepOutcome {
  const status = medusaStatusFor({ status: tx.status, transactionType, awaitingShopper })
  const outcome = outcomeOf(tx)
  return {
    status,
    patch: {
      transaction_id: tx.id,
      gateway_status: tx.status,
      next_action: awaitingShopper ? undefined : null,
      error: isFailedStatus(tx.status) ? { code: outcome.code ?? tx.processing_code ?? null, message: outcome.shopperMessage } : null,
    },
    // Still waiting on the shopper (a status read mid-challenge): the step and its payment_data stay as they are.
    paymentData: awaitingShopper ? undefined : null,
  }
}

export function stepOutcome(result: ExecutionResult, transactionType: GatewayTransactionType): StepOutcome {
  const pending = (next: NextAction, paymentData: string | null): StepOutcome => ({
    status: medusaStatusFor({ status: "CREATED", transactionType, awaitingShopper: true }),
    patch: { transaction_id: result.transactionId, gateway_status: "CREATED", next_action: next, error: null },
    paymentData,
  })
  switch (result.kind) {
    case "finished": {
      // A repeat of a reference may answer with the existing transaction instead of the redirect object: while it
      // is open and names a redirect_url, the shopper still has to go there.
      const tx = result.transaction
      if (!FINAL_STATUSES.has(tx.status) && tx.redirect_url) {
        const step = pending({ type: "redirect", url: tx.redirect_url }, null)
        return { ...step, patch: { ...step.patch, gateway_status: tx.status } }
      }
      return finishedOutcome(tx, transactionType)
    }
    case "fingerprint": {
      const form = fingerprintForm(result.token)
      return pending(
        {
          type: "fingerprint",
          three_ds_server_trans_id: result.token.three_ds_server_trans_id,
          method_url: form?.url ?? null,
          three_ds_method_data: form?.fields.threeDSMethodData ?? null,
        },
        result.action.payment_data,
      )
    }
    case "challenge": {
      const form = challengeForm(result.token)
      return pending(
        {
          type: "challenge",
          three_ds_server_trans_id: result.token.three_ds_server_trans_id,
          acs_url: form.url,
          creq: form.fields.creq,
          challenge_window_size: result.token.challenge_window_size,
        },
        result.action.payment_data,
      )
    }
    case "redirect":
      return pending({ type: "redirect", url: result.redirect.url }, null)
    case "form_submit":
      return pending({ type: "form_submit", url: result.formSubmit.url, fields: result.formSubmit.data }, null)
  }
}

/** A session of another integration, or one not at this step, is refused with the step it is at. */
export function requireNext<T extends "fingerprint" | "challenge">(current: PgsSessionData, type: T) {
  const next = current.next_action
  if (!next || next.type !== type)
    throw new MedusaError(MedusaError.Types.CONFLICT, `This payment session is not waiting for a 3-D Secure ${type} (next step: ${next?.type ?? "none"})`)
  return next as Extract<NonNullable<PgsSessionData["next_action"]>, { type: T }>
}
