/**
 * POST /api/transactions/authorize: the body table of the first document plus the per-method rules of the
 * instant, voucher and wallet-redirect sections of the other one.
 */
import { z } from "zod"
import {
  amount,
  browserInfo,
  currency,
  customerInput,
  description,
  ip,
  metadata,
  originatorUrl,
  shortReference,
  terminalId,
  webUrl,
} from "./fields"
import { CARD_METHOD_TYPES, isVoucherType, paymentMethod } from "./payment-methods"

export const INITIAL_TYPES = ["PURCHASE", "AUTHORIZE", "OCT", "PAYOUT"] as const
export const TOKENIZE_FOR = ["CUSTOMER_INITIATED_TRANSACTION", "MERCHANT_INITIATED_TRANSACTION"] as const

/**
 * options.three_ds.notification_url must start with https://, be well formed with a host and be at most 256
 * characters. It is checked after the schema because a bad one is a 400, not a 422.
 */
export const NOTIFICATION_URL_LIMIT = 256
export function isValidNotificationUrl(url: string): boolean {
  if (url.length > NOTIFICATION_URL_LIMIT || !url.startsWith("https://")) return false
  try {
    return new URL(url).hostname !== ""
  } catch {
    return false
  }
}

/** Assumption: save_card_for_future_payments must be given when the object is sent (the table has no default). */
export const tokenization = z.object({
  save_card_for_future_payments: z.boolean(),
  tokenize_for: z.enum(TOKENIZE_FOR).optional(),
})

const fields = z.object({
  reference: shortReference,
  terminal_id: terminalId,
  description,
  currency,
  amount,
  transaction_type: z.enum(INITIAL_TYPES),
  payment_method: paymentMethod,
  customer: customerInput.optional(),
  browser_info: browserInfo.optional(),
  metadata: metadata.optional(),
  return_url: webUrl.optional(),
  error_url: webUrl.optional(),
  cancel_url: webUrl.optional(),
  // options.number_of_instalments "does not request instalments": other keys pass through and are ignored.
  options: z.object({ three_ds: z.object({ notification_url: z.string().optional() }).optional() }).loose().optional(),
  tokenization: tokenization.optional(),
  customer_ip: ip.optional(),
  originator_url: originatorUrl.optional(),
})

type Body = z.output<typeof fields>

/** Fields the table leaves optional but a method's own section (or the examples) requires. */
function methodRules(body: Body, ctx: z.RefinementCtx): void {
  const type = body.payment_method.type
  const required = (field: keyof Body, why: string) => {
    if (body[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: `must not be null: ${why}` })
  }
  const purchaseOnly = () => {
    if (body.transaction_type !== "PURCHASE")
      ctx.addIssue({ code: "custom", path: ["transaction_type"], message: `only PURCHASE is allowed for ${type}` })
  }
  if (CARD_METHOD_TYPES.has(type)) {
    required("browser_info", "required for card transactions")
    // Assumption: the exact required set is not shown; every card example carries return_url.
    required("return_url", "required for card transactions")
  }
  // Assumption: OCT and PAYOUT push funds to a card, so they take a card or a saved card.
  if ((body.transaction_type === "OCT" || body.transaction_type === "PAYOUT") && type !== "card" && type !== "saved_card")
    ctx.addIssue({ code: "custom", path: ["payment_method", "type"], message: `${body.transaction_type} needs a card` })
  if (type === "provider-instant") {
    purchaseOnly()
    if (body.currency !== "PLN") ctx.addIssue({ code: "custom", path: ["currency"], message: "only PLN is supported" })
    required("return_url", "required for provider-instant")
  }
  if (isVoucherType(type)) {
    purchaseOnly()
    // "The schema's required list also names customer, browser_info and metadata."
    required("customer", "required for voucher redirects")
    required("browser_info", "required for voucher redirects")
    required("metadata", "required for voucher redirects")
    required("return_url", "required for voucher redirects")
  }
  if (type === "wallet-one-redirect" || type === "wallet-two-redirect") {
    purchaseOnly()
    required("return_url", "required for wallet redirects")
  }
}

export const authorizeRequest = fields.superRefine(methodRules)
export type AuthorizeRequest = z.output<typeof authorizeRequest>
