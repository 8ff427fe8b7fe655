/** Response bodies of the PGS API, parsed at the client boundary (tolerant where a field could be left out). */
import { z } from "zod"
import { customer, transactionStatus } from "./common"

export const tokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.number().positive(),
  token_type: z.string(),
  refresh_token: z.string().optional(),
  scope: z.string().optional(),
})
export type TokenResponse = z.infer<typeof tokenResponse>

const nstr = z.string().nullish()

export const transaction = z.object({
  id: z.string(),
  merchant_id: z.string(),
  order_id: z.string(),
  terminal_id: z.string(),
  reference: z.string(),
  description: z.string(),
  currency: z.string(),
  amount: z.int(),
  normalized_amount: z.int(),
  customer: customer.nullish(),
  processing_result: z
    .object({
      payment_provider_id: nstr,
      payment_provider_account_id: nstr,
      approval_code: nstr,
      reference_number: nstr,
    })
    .nullish(),
  approved: z.boolean(),
  pending: z.boolean(),
  channel: z.string(),
  transaction_type: z.string(),
  status: transactionStatus,
  payment_method: z
    .object({ brand: nstr, hash: nstr, masked: nstr, method: nstr, token: nstr, type: z.string() })
    .nullish(),
  redirect_url: nstr,
  errors: z.array(z.record(z.string(), z.unknown())).nullish(),
  processing_code: nstr,
  response_message: nstr,
  data: z
    .object({
      retry_options: z
        .object({
          data: z.unknown(),
          payment_provider_account_id: nstr,
          payment_provider_id: nstr,
          retry_count: z.int().nullish(),
          status: nstr,
        })
        .nullish(),
    })
    .loose()
    .nullish(),
})
export type Transaction = z.infer<typeof transaction>

export const THREE_DS_ACTION_TYPES = ["THREE_DS_2_FINGERPRINT", "THREE_DS_2_CHALLENGE"] as const
export const action = z.object({
  transaction_id: z.string(),
  session_id: z.string(),
  type: z.enum(THREE_DS_ACTION_TYPES),
  token: z.string(),
  payment_data: z.string(),
})
export type Action = z.infer<typeof action>

/** Decoded `action.token` (Base64 JSON). */
export const actionToken = z.object({
  three_ds_method_url: z.string().optional(),
  three_ds_server_trans_id: z.string(),
  three_ds_method_notification_url: z.string(),
  acs_url: z.string(),
  acs_trans_id: z.string(),
  message_version: z.string(),
  challenge_window_size: z.string(),
})
export type ActionToken = z.infer<typeof actionToken>

export const redirect = z.object({ transaction_id: z.string(), session_id: z.string().nullish(), url: z.string() })
export const formSubmit = z.object({
  transaction_id: z.string(),
  session_id: z.string().nullish(),
  url: z.string(),
  data: z.record(z.string(), z.string()),
})

export const executionResponse = z.object({
  result: transaction.nullable(),
  action: action.nullable(),
  redirect: redirect.nullable(),
  form_submit: formSubmit.nullable(),
})
export type ExecutionResponse = z.infer<typeof executionResponse>

/** The short form the spec also documents for the 3-D Secure flow: `id`, `status`, `amount`, `currency`. */
export const transactionSummary = z.object({ id: z.string(), status: transactionStatus, amount: z.int(), currency: z.string() })
export type TransactionSummary = z.infer<typeof transactionSummary>
/** Either form is accepted; the full Transaction is tried first. */
export const statusResponse = z.object({ found: z.boolean(), transaction: z.union([transaction, transactionSummary]).nullable() })
export const isFullTransaction = (t: Transaction | TransactionSummary): t is Transaction => "reference" in t && "terminal_id" in t
export type StatusResponse = z.infer<typeof statusResponse>

export const sessionResponse = z.object({
  id: z.string(),
  status: z.literal("CREATED"),
  terminal_id: z.string(),
  reference: z.string(),
  description: z.string(),
  currency: z.string(),
  amount: z.int(),
  transaction_type: z.enum(["AUTHORIZE", "PURCHASE"]),
  return_url: z.string(),
  customer: z.record(z.string(), z.unknown()).nullish(),
  country: z.string().nullish(),
  originator_url: z.string().nullish(),
})
export type SessionResponse = z.infer<typeof sessionResponse>

export const customerResponse = z.object({
  id: z.string(),
  first_name: nstr,
  last_name: nstr,
  email: z.string(),
  phone: nstr,
  address: nstr,
  city: nstr,
  country: nstr,
  postal_code: nstr,
})
export type CustomerResponse = z.infer<typeof customerResponse>

/** DELETE /api/payment-methods/{id}: "the payment method whose status is DELETED"; other fields not shown. */
export const deletedPaymentMethodResponse = z
  .object({ id: z.string(), status: z.literal("DELETED") })
  .loose()
export type DeletedPaymentMethodResponse = z.infer<typeof deletedPaymentMethodResponse>

/** POST /api/hosted-payment-page: response shape not shown; we assume an id and the page URL (README "Assumptions"). */
export const hostedPaymentPageResponse = z.object({ id: z.string(), url: z.string() }).loose()
export type HostedPaymentPageResponse = z.infer<typeof hostedPaymentPageResponse>

export const validationErrorBody = z.object({
  errors: z.array(z.object({ message: z.string(), params: z.array(z.string()), property: z.string() })),
  method: z.string(),
  status: z.literal(422),
})
export type ValidationErrorBody = z.infer<typeof validationErrorBody>
export const unauthorizedBody = z.object({ error: z.string() })
