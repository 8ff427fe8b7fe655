/** POST /api/transactions/payment and /payout: the "Payment request" and "Payout request" tables of the other document. */
import { z } from "zod"
import {
  amount,
  boundedDescription,
  country,
  currency,
  customerInput,
  ip,
  longReference,
  metadata,
  originatorUrl,
  terminalId,
  webUrl,
} from "./fields"

/** The `method` enum as the document lists it. */
export const PAYMENT_METHODS = ["OPEN_BANKING", "UPI", "WALLETS", "BANK_TRANSFER", "QR_CODE"] as const
/**
 * Assumption: the two bank redirects go through this endpoint, yet "which method value selects them: not shown".
 * The sandbox takes these two names (README "Assumptions"); they are its only additions to the enum.
 */
export const BANK_REDIRECT_METHODS = ["BANK_SCHEME_REDIRECT", "OPENBANKING_REDIRECT"] as const

export const paymentRequest = z.object({
  terminal_id: terminalId,
  reference: longReference,
  description: boundedDescription,
  currency,
  amount,
  method: z.enum([...PAYMENT_METHODS, ...BANK_REDIRECT_METHODS]),
  country,
  customer_ip: ip,
  return_url: webUrl,
  error_url: webUrl,
  cancel_url: webUrl,
  customer: customerInput.optional(),
  metadata: metadata.optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  originator_url: originatorUrl.optional(),
})

export const BENEFICIARY_TYPES = ["bank_account"] as const
const bankDetail = z.string().optional()
export const beneficiary = z.object({
  type: z.enum(BENEFICIARY_TYPES),
  data: z.object({
    account_number: z.string().min(1),
    account_name: z.string().min(1),
    // Required for INR only: checked on the whole body below.
    ifsc: z.string().min(1).optional(),
    bank_code: bankDetail,
    bank_name: bankDetail,
    bank_branch: bankDetail,
    bank_address: bankDetail,
    bank_city: bankDetail,
    bank_state: bankDetail,
    mobile: bankDetail,
  }),
})

export const payoutRequest = z
  .object({
    terminal_id: terminalId,
    // 1 to 80 here, "a maximum of 40" in one description: the gateway side accepts the wider one.
    reference: longReference,
    description: boundedDescription,
    currency,
    amount,
    beneficiary,
    customer: customerInput.optional(),
    metadata: metadata.optional(),
    return_url: webUrl.optional(),
    options: z.record(z.string(), z.unknown()).optional(),
    // "string or null"; omitted or empty means the IP of the HTTP request.
    customer_ip: z.union([z.literal(""), ip]).nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.currency === "INR" && !body.beneficiary.data.ifsc)
      ctx.addIssue({ code: "custom", path: ["beneficiary", "data", "ifsc"], message: "must not be null: required for INR" })
  })
