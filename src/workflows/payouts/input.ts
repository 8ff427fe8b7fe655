/**
 * What an admin sends to create a payout, checked field by field before anything is recorded or sent. Amounts are
 * major units (as everywhere in Medusa) and must convert exactly to the currency's minor units.
 */
import { z } from "zod"
import { currencyExponent, PAYOUT_REFERENCE_MAX, toMinorUnits } from "../../gateway"

const text = (max: number) => z.string().trim().min(1).max(max)

/** Spec: account_number and account_name required; ifsc required for INR (checked below, it needs the currency). */
const bankAccount = z.strictObject({
  type: z.literal("bank_account"),
  account_number: z.string().regex(/^[0-9A-Za-z]{4,34}$/, "must be 4 to 34 letters or digits, without spaces"),
  account_name: text(140),
  ifsc: z.string().regex(/^[A-Z]{4}0[A-Z0-9]{6}$/, "must be an IFSC: 4 capital letters, 0, then 6 capital letters or digits").optional(),
  bank_code: text(40).optional(),
  bank_name: text(140).optional(),
  bank_branch: text(140).optional(),
  bank_address: text(255).optional(),
  bank_city: text(140).optional(),
  bank_state: text(140).optional(),
  mobile: text(20).optional(),
})

/** Plain-text rules of the spec's card encryption: digits only, month 1-12, 2- or 4-digit year not in the past. */
const card = z.strictObject({
  type: z.literal("card"),
  transaction_type: z.enum(["OCT", "PAYOUT"]).default("OCT"),
  number: z.string().regex(/^\d{12,19}$/, "must be 12 to 19 digits, without spaces"),
  expiration_month: z
    .union([z.int(), z.string().regex(/^\d{1,2}$/, "must be 1 to 12")])
    .transform(Number)
    .pipe(z.int().min(1, "must be 1 to 12").max(12, "must be 1 to 12")),
  expiration_year: z
    .union([z.int(), z.string().regex(/^(\d{2}|\d{4})$/, "must have 2 or 4 digits")])
    .transform((y) => (Number(y) < 100 ? 2000 + Number(y) : Number(y)))
    .refine((y) => y >= new Date().getUTCFullYear(), "must be the current year or later"),
  // Spec: every field of a `card` payment method is required, the CVV too.
  cvv: z.string().regex(/^\d{3,4}$/, "must be 3 or 4 digits"),
})

export const payoutInput = z
  .strictObject({
    reference: z.string().trim().min(1).max(PAYOUT_REFERENCE_MAX),
    /** Defaults to the module option payoutTerminalId. */
    terminal_id: z.string().min(5).max(20).optional(),
    // Zero and below are told "must be greater than 0" (below), whichever way they are written.
    amount: z.union([z.number(), z.string().trim().regex(/^-?\d+(\.\d+)?$/, "must be a number such as 125.50, without spaces or thousands separators")]),
    currency_code: z
      .string()
      .regex(/^[A-Za-z]{3}$/, "must be a three-letter currency code, such as EUR")
      .transform((c) => c.toLowerCase()),
    description: text(100),
    beneficiary: z.discriminatedUnion("type", [bankAccount, card]),
    metadata: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((body, ctx) => {
    let exponentKnown = true
    try {
      currencyExponent(body.currency_code)
    } catch {
      exponentKnown = false
      ctx.addIssue({ code: "custom", path: ["currency_code"], message: "is not an ISO 4217 currency" })
    }
    if (exponentKnown) {
      try {
        if (toMinorUnits(body.amount, body.currency_code) <= 0) ctx.addIssue({ code: "custom", path: ["amount"], message: "must be greater than 0" })
      } catch (error) {
        ctx.addIssue({ code: "custom", path: ["amount"], message: (error as Error).message })
      }
    }
    if (body.currency_code === "inr" && body.beneficiary.type === "bank_account" && !body.beneficiary.ifsc)
      ctx.addIssue({ code: "custom", path: ["beneficiary", "ifsc"], message: "is required for INR payouts (it identifies the bank and branch)" })
  })
export type PayoutInput = z.output<typeof payoutInput>
