/**
 * What a storefront may send when it initiates a session of a method family, and the family's rules that are
 * checked then — before any gateway call, so a refused payment leaves no trace at the gateway.
 */
import { MedusaError } from "@medusajs/framework/utils"
import { z } from "zod"
import { e164Phone, VOUCHER_CODES, type VoucherCode } from "../../gateway/schemas"
import { describeIssues } from "./initiate-input"
import { onlyCurrency, takesCurrency, type MethodFamily } from "../../payments/method-families"

export const familyInitiateInput = z.object({
  session_id: z.string().min(1),
  /** Voucher family: the code the shopper picked (lower case, e.g. "ali"). */
  voucher_code: z.string().optional(),
  /** Instant PLN method: the 6-digit scheme code, when the storefront collected it. */
  scheme_code: z.string().regex(/^\d{6}$/, "must be exactly 6 digits").optional(),
  /** Instant PLN method: the payer's phone, E.164 (else the cart's, when it is a possible number). */
  phone: e164Phone.optional(),
  /**
   * Hosted page only: the session of a pay link (`/pgs/pay/…`); the shopper comes back to the plugin's result page
   * instead of the storefront. Harmless if a storefront sends it: only where its own shopper lands changes.
   */
  pay_link: z.literal(true).optional(),
})
export type FamilyInitiateInput = z.infer<typeof familyInitiateInput>

export type FamilyChoice = { voucher_code?: VoucherCode; method_data: Record<string, string> }

const invalid = (message: string) => new MedusaError(MedusaError.Types.INVALID_DATA, message)

/** Parses and checks the initiate data of one family in one currency; throws a message naming the field. */
export function checkFamilyInput(family: MethodFamily, raw: Record<string, unknown>, currencyCode: string): FamilyInitiateInput & FamilyChoice {
  const parsed = familyInitiateInput.safeParse(raw)
  if (!parsed.success) throw invalid(`Invalid PGS payment data: ${describeIssues(parsed.error)}`)
  const input = parsed.data
  const currency = currencyCode.toLowerCase()
  const method_data: Record<string, string> = {}

  if (!takesCurrency(family, currency))
    throw invalid(`${family.identifier} takes ${onlyCurrency(family)!.toUpperCase()} only; this cart is in ${currency.toUpperCase()}`)

  if (family.kind === "authorize" && family.paymentType === "voucher-redirect") {
    const code = input.voucher_code
    if (!code) throw invalid(`data.voucher_code is required for ${family.identifier}: one of ${VOUCHER_CODES.join(", ")}`)
    if (!(VOUCHER_CODES as readonly string[]).includes(code))
      throw invalid(`data.voucher_code "${code}" is not a voucher code: use one of ${VOUCHER_CODES.join(", ")} (lower case, without the voucher-redirect- prefix)`)
    return { ...input, voucher_code: code as VoucherCode, method_data }
  }
  if (input.voucher_code !== undefined) throw invalid(`data.voucher_code is only for pgs-voucher-redirect, not ${family.identifier}`)

  if (input.pay_link && family.kind !== "hosted") throw invalid(`data.pay_link is only for pgs-hosted, not ${family.identifier}`)
  const instant = family.kind === "authorize" && family.paymentType === "provider-instant"
  for (const field of ["scheme_code", "phone"] as const) {
    if (input[field] === undefined) continue
    if (!instant) throw invalid(`data.${field} is only for pgs-provider-instant, not ${family.identifier}`)
    method_data[field] = input[field]
  }
  return { ...input, voucher_code: undefined, method_data }
}
