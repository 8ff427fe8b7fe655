/**
 * The other request bodies of the first document: sessions, customers, management, the two 3-D Secure calls and
 * the hosted payment page.
 */
import { z } from "zod"
import {
  amount,
  boundedDescription,
  country,
  currency,
  customerInput,
  description,
  metadata,
  optionalPhone,
  originatorUrl,
  shortReference,
  longReference,
  stringMetadata,
  terminalId,
  webUrl,
} from "./fields"

export const SESSION_TYPES = ["AUTHORIZE", "PURCHASE"] as const

export const sessionRequest = z
  .object({
    terminal_id: terminalId,
    reference: shortReference,
    description,
    currency,
    amount,
    transaction_type: z.enum(SESSION_TYPES),
    return_url: webUrl,
    customer: z
      .object({
        first_name: z.string().optional(),
        last_name: z.string().optional(),
        address: z.string().optional(),
        city: z.string().optional(),
        country: country.optional(),
        postal_code: z.string().optional(),
        email: z.email().optional(),
        phone: optionalPhone,
      })
      .optional(),
    country: country.optional(),
    originator_url: originatorUrl.optional(),
    options: z.record(z.string(), z.unknown()).optional(),
  })
  .superRefine((body, ctx) => {
    // "options.number_of_instalments on a session ... must be left out": the shopper picks them in the card form.
    // Assumption: refused (422) rather than ignored, so a merchant learns it has no effect.
    if (body.options && "number_of_instalments" in body.options)
      ctx.addIssue({ code: "custom", path: ["options", "number_of_instalments"], message: "must be left out: the shopper chooses instalments in the card form" })
  })

const upTo255 = z.string().max(255).optional()
export const createCustomerRequest = z.object({
  email: z.email().max(512),
  first_name: upTo255,
  last_name: upTo255,
  phone: optionalPhone,
  description: upTo255,
  type: z.string().optional(),
  address: z
    .object({ country: country.optional(), address: upTo255, city: upTo255, postal_code: upTo255, region: upTo255 })
    .optional(),
})

export const MANAGEMENT_TYPES = ["CAPTURE", "REFUND", "VOID"] as const
export const manageRequest = z.object({
  terminal_id: terminalId,
  // The original order reference: an authorize (40) or a payment (80) reference.
  reference: longReference,
  transaction_type: z.enum(MANAGEMENT_TYPES),
  amount,
  currency,
  parent_transaction_id: z.string().min(1).optional(),
  options: z.object({ final_capture: z.boolean().optional() }).loose().optional(),
  metadata: stringMetadata.optional(),
})

/** fingerprint_result: Base64 of `Y` (the method form was submitted) or of `N` (no method URL). */
export const FINGERPRINT_RESULTS = ["Y", "N"].map((v) => Buffer.from(v).toString("base64")) as [string, string]
export const requestAuthenticationRequest = z.object({
  fingerprint_result: z.enum(FINGERPRINT_RESULTS, { error: "must be Base64 of Y or N" }),
  payment_data: z.string().min(1),
})

export const TRANS_STATUSES = ["Y", "N", "U", "A", "C", "R"] as const
export type TransStatus = (typeof TRANS_STATUSES)[number]
export const authenticationCompletedRequest = z.object({
  payment_data: z.string().min(1),
  session_id: z.string().min(1),
  trans_status: z.enum(TRANS_STATUSES),
})

/**
 * "One of four supported languages": the document names four locales only once, for the embedded fields;
 * Assumption: the hosted page has the same four.
 */
export const LANGUAGES = ["en-US", "bs-BA", "ro-RO", "sv-SE"] as const
export type Language = (typeof LANGUAGES)[number]
/** Instalments offered in the card form: 1 to 6. */
export const MAX_INSTALMENTS = 6

/** POST /api/hosted-payment-page. Assumption: the fields the spec does not list are those of a session. */
export const hostedPaymentPageRequest = z.object({
  terminal_id: terminalId,
  reference: shortReference,
  description: boundedDescription,
  currency,
  amount,
  transaction_type: z.enum(SESSION_TYPES).optional(),
  success_url: webUrl,
  cancel_url: webUrl,
  error_url: webUrl,
  language: z.enum(LANGUAGES).optional(),
  customer: customerInput.optional(),
  metadata: metadata.optional(),
  options: z
    .object({
      number_of_instalments: z.int().min(1).max(MAX_INSTALMENTS).optional(),
      skip_three_ds: z.boolean().optional(),
      cvv_less: z.boolean().optional(),
    })
    .optional(),
})
