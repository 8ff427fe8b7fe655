/**
 * Sends a payout (bank account or card) through the gateway, recorded in the pgs module before the gateway is
 * called, so a payout can never exist at the gateway without a row here. Idempotent by reference: a final payout
 * is returned as it is (no gateway call); an unfinished one is sent again with the same reference (the gateway
 * answers with the transaction it already has) or read by its transaction id; another amount, currency, terminal
 * or beneficiary under a known reference is a conflict naming the field.
 *
 * The input is a PreparedPayout (payouts/prepare.ts): the beneficiary is already sealed, so nothing this workflow
 * holds (and the engine may checkpoint) contains a full account or card number.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { createStep, createWorkflow, StepResponse, WorkflowResponse } from "@medusajs/framework/workflows-sdk"
import { toMinorUnits } from "../gateway"
import { PGS_MODULE } from "../modules/pgs"
import { FINAL_PAYOUT_STATUSES } from "../modules/pgs/models"
import type PgsModuleService from "../modules/pgs/service"
import { payoutAmountMinor, type PayoutProgress, type PgsPayoutRow } from "../modules/pgs/service"
import { openBeneficiary } from "./payouts/beneficiary"
import type { PayoutFieldError, PreparedPayout } from "./payouts/prepare"
import { readPayout, sendPayout } from "./payouts/send"

/** `sent`: this request sent the payout to the gateway (a new one, or one whose earlier sending never got through). */
export type CreatePgsPayoutResult = { payout: PgsPayoutRow; is_new: boolean; sent: boolean; conflicts: PayoutFieldError[] }

type Next = "send" | "read" | "none"
type Recorded = { payout_id: string; is_new: boolean; next: Next; transaction_id: string | null; conflicts: PayoutFieldError[] }

const pgsOf = (container: { resolve<T>(key: string): T }) => container.resolve<PgsModuleService>(PGS_MODULE)

/** Before anything is written: the terminal, the money and the sealed beneficiary must be usable. */
export const validatePgsPayoutStep = createStep("validate-pgs-payout", async (input: PreparedPayout, { container }) => {
  const invalid = (field: string, why: string) => new MedusaError(MedusaError.Types.INVALID_DATA, `${field} ${why}`)
  if (!input.terminal_id || input.terminal_id.length < 5 || input.terminal_id.length > 20) throw invalid("terminal_id", "must be 5 to 20 characters")
  let minor: number
  try {
    minor = toMinorUnits(input.amount, input.currency_code)
  } catch (error) {
    throw invalid("amount", (error as Error).message)
  }
  if (minor !== input.amount_minor || minor <= 0) throw invalid("amount", "does not match amount_minor or is not positive")
  try {
    openBeneficiary(pgsOf(container).payoutSettings().secret, input.reference, input.sealed)
  } catch {
    throw invalid("beneficiary", "was not sealed for this reference by this server")
  }
  return new StepResponse(true)
})

/** What differs between a known payout and a repeated request with its reference. */
function conflictsWith(row: PgsPayoutRow, p: PreparedPayout): PayoutFieldError[] {
  const differs = (field: string) => ({ field, message: `differs from payout ${row.id}, already made with reference ${row.reference}` })
  const out: PayoutFieldError[] = []
  if (row.terminal_id !== p.terminal_id) out.push(differs("terminal_id"))
  if (row.currency_code !== p.currency_code) out.push(differs("currency_code"))
  else if (payoutAmountMinor(row) !== p.amount_minor) out.push(differs("amount"))
  if (row.method !== p.method || row.beneficiary_fingerprint !== p.beneficiary_fingerprint) out.push(differs("beneficiary"))
  else if (row.transaction_type !== p.transaction_type) out.push(differs("beneficiary.transaction_type"))
  // Said where the admin acts: another payout needs a reference of its own.
  if (out.length) out.unshift({ field: "reference", message: `is already used by payout ${row.id}: give a new payout a new reference` })
  return out
}

/**
 * The row first, so the gateway is never called for a payout we have not recorded. Compensation (a later step
 * threw unexpectedly): the gateway may have acted, so the row stays, marked PENDING with a note, never deleted.
 */
export const recordPgsPayoutStep = createStep(
  "record-pgs-payout",
  async (input: PreparedPayout, { container }) => {
    const { payout, is_new } = await pgsOf(container).recordPayout({
      reference: input.reference,
      terminal_id: input.terminal_id,
      method: input.method,
      transaction_type: input.transaction_type,
      amount: input.amount,
      currency_code: input.currency_code,
      description: input.description,
      masked: input.masked,
      beneficiary_name: input.beneficiary_name,
      beneficiary_fingerprint: input.beneficiary_fingerprint,
      metadata: input.metadata,
      created_by: input.created_by,
    })
    const conflicts = is_new ? [] : conflictsWith(payout, input)
    const next: Next =
      conflicts.length || FINAL_PAYOUT_STATUSES.has(payout.status) ? "none" : payout.transaction_id ? "read" : "send"
    const recorded: Recorded = { payout_id: payout.id, is_new, next, transaction_id: payout.transaction_id ?? null, conflicts }
    return new StepResponse(recorded, { payout_id: payout.id, touched: next !== "none" })
  },
  async (undo, { container }) => {
    if (!undo?.touched) return
    await pgsOf(container).advancePayout(undo.payout_id, {
      status: "PENDING",
      note: "Recording the gateway's answer failed, so the payout may or may not exist there. Send the same request again (same reference) or wait for the webhook.",
    })
  },
)

/** The gateway call (or status read) for a payout that is not final; never throws for a gateway failure. */
export const sendPgsPayoutStep = createStep(
  "send-pgs-payout",
  async (input: { payout: PreparedPayout; recorded: Recorded }, { container }) => {
    const pgs = pgsOf(container)
    const { recorded } = input
    let progress: PayoutProgress | null = null
    if (recorded.next === "send") progress = await sendPayout(pgs.gateway(), pgs.payoutSettings(), input.payout)
    else if (recorded.next === "read" && recorded.transaction_id) progress = await readPayout(pgs.gateway(), recorded.transaction_id)
    return new StepResponse(progress)
  },
)

/** Applies the answer (never backwards: a webhook may have finished the payout meanwhile) and reads the row. */
export const storePgsPayoutResultStep = createStep(
  "store-pgs-payout-result",
  async (input: { recorded: Recorded; progress: PayoutProgress | null }, { container }) => {
    const pgs = pgsOf(container)
    if (input.progress) await pgs.advancePayout(input.recorded.payout_id, input.progress)
    const payout = await pgs.retrievePgsPayout(input.recorded.payout_id)
    const result: CreatePgsPayoutResult = { payout, is_new: input.recorded.is_new, sent: input.recorded.next === "send", conflicts: input.recorded.conflicts }
    return new StepResponse(result)
  },
)

export const createPgsPayoutWorkflowId = "create-pgs-payout"

export const createPgsPayoutWorkflow = createWorkflow(createPgsPayoutWorkflowId, (input: PreparedPayout) => {
  validatePgsPayoutStep(input)
  const recorded = recordPgsPayoutStep(input)
  const progress = sendPgsPayoutStep({ payout: input, recorded })
  return new WorkflowResponse(storePgsPayoutResultStep({ recorded, progress }))
})

// For code that sends payouts without the admin route: check with payoutInput, then preparePayout, then run.
export { payoutInput, type PayoutInput } from "./payouts/input"
export { preparePayout, PayoutRequestError, type PreparedPayout, type PayoutFieldError } from "./payouts/prepare"
