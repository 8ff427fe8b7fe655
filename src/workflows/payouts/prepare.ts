/**
 * A checked admin request → the payout the workflow runs with: terminal chosen, money exact, the beneficiary
 * masked, fingerprinted and sealed. Done before the workflow starts, so no raw account or card number is ever
 * part of a workflow's input.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { fromMinorUnits, GatewayValidationError, toMinorUnits } from "../../gateway"
import type PgsModuleService from "../../modules/pgs/service"
import { recordBeneficiary, type BeneficiaryRecord } from "./beneficiary"
import type { PayoutInput } from "./input"

export type PayoutFieldError = { field: string; message: string }

/** A request that cannot become a payout; each entry names a field of the admin body. */
export class PayoutRequestError extends Error {
  override name = "PayoutRequestError"
  constructor(readonly fields: PayoutFieldError[]) {
    super(`Invalid payout: ${fields.map((f) => `${f.field} ${f.message}`).join("; ")}`)
  }
}

export type PreparedPayout = BeneficiaryRecord & {
  reference: string
  terminal_id: string
  description: string
  /** Major units, exact ("125.50"). */
  amount: string
  amount_minor: number
  currency_code: string
  metadata: Record<string, unknown> | null
  created_by: string | null
}

/** The gateway's names for the card fields → ours (a local encryption check names the gateway's property). */
const CARD_FIELDS: Record<string, string> = {
  "payment_method.data.encrypted_card_number": "beneficiary.number",
  "payment_method.data.encrypted_cvv": "beneficiary.cvv",
  "payment_method.data.encrypted_expiration_month": "beneficiary.expiration_month",
  "payment_method.data.encrypted_expiration_year": "beneficiary.expiration_year",
}

export function preparePayout(pgs: PgsModuleService, input: PayoutInput, createdBy: string | null): PreparedPayout {
  const settings = pgs.payoutSettings()
  const terminalId = input.terminal_id ?? settings.terminalId
  if (!terminalId)
    throw new PayoutRequestError([{ field: "terminal_id", message: "is required: no default payout terminal is configured (option payoutTerminalId, PGS_PAYOUT_TERMINAL_ID)" }])
  let beneficiary: BeneficiaryRecord
  try {
    beneficiary = recordBeneficiary({ client: pgs.gateway(), secret: settings.secret }, input.reference, input.beneficiary)
  } catch (error) {
    if (error instanceof GatewayValidationError)
      throw new PayoutRequestError(error.fields.map((f) => ({ field: CARD_FIELDS[f.property] ?? f.property, message: f.message })))
    if (error instanceof TypeError && /merchantPublicKey/.test(error.message))
      throw new MedusaError(MedusaError.Types.NOT_ALLOWED, "Card payouts need the merchant public key to encrypt the card: set PGS_MERCHANT_PUBLIC_KEY (option merchantPublicKey)")
    throw error
  }
  const minor = toMinorUnits(input.amount, input.currency_code)
  return {
    ...beneficiary,
    reference: input.reference,
    terminal_id: terminalId,
    description: input.description,
    amount: fromMinorUnits(minor, input.currency_code),
    amount_minor: minor,
    currency_code: input.currency_code,
    metadata: input.metadata ?? null,
    created_by: createdBy,
  }
}
