/** Request bodies of every PGS endpoint, with the cross-field rules the spec states. */
import { z } from "zod"
import {
  browserInfo,
  cardReference,
  countryCode,
  currencyCode,
  customerInput,
  optionalPhone,
  httpUrl,
  INITIAL_TRANSACTION_TYPES,
  ipAddress,
  MANAGEMENT_TYPES,
  metadata,
  minorAmount,
  originatorUrl,
  paymentDescription,
  paymentReference,
  stringMetadata,
  terminalId,
} from "./common"
import { CARD_METHOD_TYPES, isVoucherType, paymentMethodInput } from "./payment-methods"

/** options.three_ds.notification_url: https only, with a host, at most 256 characters (400 when violated). */
export const NOTIFICATION_URL_MAX = 256
export function isValidNotificationUrl(value: string): boolean {
  if (value.length > NOTIFICATION_URL_MAX || !value.startsWith("https://")) return false
  try {
    return new URL(value).hostname.length > 0
  } catch {
    return false
  }
}

export const authorizeRequest = z
  .object({
    reference: cardReference,
    terminal_id: terminalId,
    description: z.string().min(1),
    currency: currencyCode,
    amount: minorAmount,
    transaction_type: z.enum(INITIAL_TRANSACTION_TYPES),
    payment_method: paymentMethodInput,
    customer: customerInput.optional(),
    browser_info: browserInfo.optional(),
    metadata: metadata.optional(),
    return_url: httpUrl.optional(),
    error_url: httpUrl.optional(),
    cancel_url: httpUrl.optional(),
    // The URL rule is checked apart from schema validation: a bad override is a 400, not a 422.
    options: z.object({ three_ds: z.object({ notification_url: z.string() }).partial().optional() }).loose().optional(),
    tokenization: z
      .object({
        save_card_for_future_payments: z.boolean(),
        tokenize_for: z.enum(["CUSTOMER_INITIATED_TRANSACTION", "MERCHANT_INITIATED_TRANSACTION"]).optional(),
      })
      .optional(),
    customer_ip: ipAddress.optional(),
    originator_url: originatorUrl.optional(),
  })
  .superRefine((body, ctx) => {
    const type = body.payment_method.type
    const need = (field: keyof typeof body, why: string) => {
      if (body[field] === undefined) ctx.addIssue({ code: "custom", path: [field], message: `must not be null: ${why}` })
    }
    const onlyPurchase = () => {
      if (body.transaction_type !== "PURCHASE")
        ctx.addIssue({ code: "custom", path: ["transaction_type"], message: `only PURCHASE is allowed for ${type}` })
    }
    if (CARD_METHOD_TYPES.has(type)) {
      need("browser_info", "required for card transactions")
      need("return_url", "required for card transactions")
    }
    if ((body.transaction_type === "OCT" || body.transaction_type === "PAYOUT") && type !== "card" && type !== "saved_card")
      ctx.addIssue({ code: "custom", path: ["payment_method", "type"], message: `${body.transaction_type} needs a card` })
    if (type === "provider-instant") {
      onlyPurchase()
      if (body.currency !== "PLN") ctx.addIssue({ code: "custom", path: ["currency"], message: "only PLN is supported" })
      need("return_url", "required for provider-instant")
    }
    if (isVoucherType(type)) {
      onlyPurchase()
      need("customer", "required for voucher redirects")
      need("browser_info", "required for voucher redirects")
      need("metadata", "required for voucher redirects")
      need("return_url", "required for voucher redirects")
    }
    if (type === "wallet-one-redirect" || type === "wallet-two-redirect") {
      onlyPurchase()
      need("return_url", "required for wallet redirects")
    }
  })
export type AuthorizeRequest = z.input<typeof authorizeRequest>

export const PAYMENT_METHODS = ["OPEN_BANKING", "UPI", "WALLETS", "BANK_TRANSFER", "QR_CODE"] as const
export const paymentRequest = z.object({
  terminal_id: terminalId,
  reference: paymentReference,
  description: paymentDescription,
  currency: currencyCode,
  amount: minorAmount,
  // The enum lists five methods; the bank redirects ride on the same endpoint with a value the spec does not show
  // (README "Assumptions"), which the merchant can set: the client accepts any upper-case method name.
  method: z.string().regex(/^[A-Z][A-Z0-9_]{1,39}$/, "must be an upper-case payment method name such as OPEN_BANKING"),
  country: countryCode,
  customer_ip: ipAddress,
  return_url: httpUrl,
  error_url: httpUrl,
  cancel_url: httpUrl,
  customer: customerInput.optional(),
  metadata: metadata.optional(),
  options: z.record(z.string(), z.unknown()).optional(),
  originator_url: originatorUrl.optional(),
})
export type PaymentRequest = z.input<typeof paymentRequest>
/** The bank-redirect method values the sandbox takes (the defaults of the provider's bankRedirectMethods option). */
export const BANK_REDIRECT_METHODS = ["BANK_SCHEME_REDIRECT", "OPENBANKING_REDIRECT"] as const

export const bankAccountBeneficiary = z.object({
  type: z.literal("bank_account"),
  data: z.object({
    account_number: z.string().min(1),
    account_name: z.string().min(1),
    ifsc: z.string().min(1).optional(),
    bank_code: z.string().optional(),
    bank_name: z.string().optional(),
    bank_branch: z.string().optional(),
    bank_address: z.string().optional(),
    bank_city: z.string().optional(),
    bank_state: z.string().optional(),
    mobile: z.string().optional(),
  }),
})
/** The documents disagree on the payout reference limit (80 vs 40): the schema allows 80, payments.payout sends at most 40. */
export const payoutRequest = z
  .object({
    terminal_id: terminalId,
    reference: paymentReference,
    description: paymentDescription,
    currency: currencyCode,
    amount: minorAmount,
    beneficiary: bankAccountBeneficiary,
    customer: customerInput.optional(),
    metadata: metadata.optional(),
    return_url: httpUrl.optional(),
    options: z.record(z.string(), z.unknown()).optional(),
    customer_ip: z.union([ipAddress, z.literal("")]).nullish(),
  })
  .superRefine((body, ctx) => {
    if (body.currency === "INR" && !body.beneficiary.data.ifsc)
      ctx.addIssue({ code: "custom", path: ["beneficiary", "data", "ifsc"], message: "must not be null: required for INR" })
  })
export type PayoutRequest = z.input<typeof payoutRequest>

export const manageRequest = z.object({
  terminal_id: terminalId,
  reference: z.string().min(1).max(80),
  transaction_type: z.enum(MANAGEMENT_TYPES),
  amount: minorAmount,
  currency: currencyCode,
  parent_transaction_id: z.string().min(1).optional(),
  options: z.object({ final_capture: z.boolean().optional() }).loose().optional(),
  metadata: stringMetadata.optional(),
})
export type ManageRequest = z.input<typeof manageRequest>

export const sessionRequest = z
  .object({
    terminal_id: terminalId,
    reference: cardReference,
    description: z.string().min(1),
    currency: currencyCode,
    amount: minorAmount,
    transaction_type: z.enum(["AUTHORIZE", "PURCHASE"]),
    return_url: httpUrl,
    customer: z
      .object({
        first_name: z.string(),
        last_name: z.string(),
        address: z.string(),
        city: z.string(),
        country: countryCode,
        postal_code: z.string(),
        email: z.email(),
        phone: optionalPhone,
      })
      .partial()
      .optional(),
    country: countryCode.optional(),
    originator_url: originatorUrl.optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((body, ctx) => {
    if (body.options && "number_of_instalments" in body.options)
      ctx.addIssue({
        code: "custom",
        path: ["options", "number_of_instalments"],
        message: "must be left out: instalments are chosen by the shopper in the card form",
      })
  })
export type SessionRequest = z.input<typeof sessionRequest>

export const createCustomerRequest = z.object({
  email: z.email().max(512),
  first_name: z.string().max(255).optional(),
  last_name: z.string().max(255).optional(),
  phone: optionalPhone,
  description: z.string().max(255).optional(),
  type: z.string().optional(),
  address: z
    .object({
      country: countryCode.optional(),
      address: z.string().max(255).optional(),
      city: z.string().max(255).optional(),
      postal_code: z.string().max(255).optional(),
      region: z.string().max(255).optional(),
    })
    .optional(),
})
export type CreateCustomerRequest = z.input<typeof createCustomerRequest>

const base64Of = (value: string) => z.literal(Buffer.from(value).toString("base64"))
export const requestAuthenticationRequest = z.object({
  fingerprint_result: z.union([base64Of("Y"), base64Of("N")], { error: "must be Base64 of Y or N" }),
  payment_data: z.string().min(1),
})
export type RequestAuthenticationRequest = z.input<typeof requestAuthenticationRequest>

export const TRANS_STATUSES = ["Y", "N", "U", "A", "C", "R"] as const
export const authenticationCompletedRequest = z.object({
  payment_data: z.string().min(1),
  session_id: z.string().min(1),
  trans_status: z.enum(TRANS_STATUSES),
})
export type AuthenticationCompletedRequest = z.input<typeof authenticationCompletedRequest>

export const HPP_LANGUAGES = ["en-US", "bs-BA", "ro-RO", "sv-SE"] as const
export const hostedPaymentPageRequest = z.object({
  terminal_id: terminalId,
  reference: cardReference,
  description: paymentDescription,
  currency: currencyCode,
  amount: minorAmount,
  transaction_type: z.enum(["AUTHORIZE", "PURCHASE"]).optional(),
  success_url: httpUrl,
  cancel_url: httpUrl,
  error_url: httpUrl,
  language: z.enum(HPP_LANGUAGES).optional(),
  customer: customerInput.optional(),
  metadata: metadata.optional(),
  options: z
    .object({
      number_of_instalments: z.int().min(1).max(6).optional(),
      skip_three_ds: z.boolean().optional(),
      cvv_less: z.boolean().optional(),
    })
    .optional(),
})
export type HostedPaymentPageRequest = z.input<typeof hostedPaymentPageRequest>
