/**
 * What the sandbox answers, as the spec's tables describe it: the Transaction, the four-field execution response,
 * status, session and customer. The sandbox plays the gateway, so these are the strict shapes (a client reading
 * the same tables may be more tolerant). Types come from here; integration-tests/contract parses real answers.
 */
import { z } from "zod"

export const TRANSACTION_STATUSES = ["CREATED", "PENDING", "APPROVED", "DECLINED", "CANCELED", "INVALID", "SESSION_EXPIRED"] as const
export const transactionStatus = z.enum(TRANSACTION_STATUSES)
export type TransactionStatus = z.output<typeof transactionStatus>
/** The "Final" column of the status table. */
export const FINAL_STATUSES: ReadonlySet<TransactionStatus> = new Set(["APPROVED", "DECLINED", "CANCELED", "INVALID", "SESSION_EXPIRED"])

const stringOrNull = z.string().nullable()

/** "Customer object (all fields string or null)". */
export const customerView = z.object({
  id: stringOrNull,
  first_name: stringOrNull,
  last_name: stringOrNull,
  email: stringOrNull,
  phone: stringOrNull,
  address: stringOrNull,
  city: stringOrNull,
  country: stringOrNull,
  postal_code: stringOrNull,
})

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
  customer: customerView,
  processing_result: z.object({
    payment_provider_id: stringOrNull,
    payment_provider_account_id: stringOrNull,
    approval_code: stringOrNull,
    reference_number: stringOrNull,
  }),
  approved: z.boolean(),
  pending: z.boolean(),
  channel: z.string(),
  transaction_type: z.string(),
  status: transactionStatus,
  payment_method: z.object({ brand: stringOrNull, hash: stringOrNull, masked: stringOrNull, method: stringOrNull, token: stringOrNull, type: z.string() }),
  redirect_url: stringOrNull,
  // "Fields of each entry: not shown."
  errors: z.array(z.record(z.string(), z.unknown())),
  processing_code: stringOrNull,
  response_message: stringOrNull,
  data: z
    .object({
      retry_options: z.object({
        data: z.unknown(),
        payment_provider_account_id: stringOrNull,
        payment_provider_id: stringOrNull,
        retry_count: z.int(),
        status: stringOrNull,
      }),
    })
    .nullable(),
})
export type Transaction = z.output<typeof transaction>

export const ACTION_TYPES = ["THREE_DS_2_FINGERPRINT", "THREE_DS_2_CHALLENGE"] as const
export const action = z.object({
  transaction_id: z.string(),
  session_id: z.string(),
  type: z.enum(ACTION_TYPES),
  token: z.string(),
  payment_data: z.string(),
})
export type Action = z.output<typeof action>

/** Decoded action.token; three_ds_method_url "may be absent". */
export const actionToken = z.object({
  three_ds_method_url: z.string().optional(),
  three_ds_server_trans_id: z.string(),
  three_ds_method_notification_url: z.string(),
  acs_url: z.string(),
  acs_trans_id: z.string(),
  message_version: z.string(),
  challenge_window_size: z.string(),
})

export const redirect = z.object({ transaction_id: z.string(), session_id: z.string(), url: z.string() })
export const formSubmit = z.object({
  transaction_id: z.string(),
  session_id: z.string(),
  url: z.string(),
  data: z.record(z.string(), z.string()),
})

export const executionResponse = z.object({
  result: transaction.nullable(),
  action: action.nullable(),
  redirect: redirect.nullable(),
  form_submit: formSubmit.nullable(),
})
export type ExecutionResponse = z.output<typeof executionResponse>

export const statusResponse = z.object({ found: z.boolean(), transaction: transaction.nullable() })
export type StatusResponse = z.output<typeof statusResponse>

/** POST /api/sessions answers "the same fields plus id and status = CREATED". */
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
  customer: z.record(z.string(), z.unknown()).nullable(),
  country: stringOrNull,
  originator_url: stringOrNull,
})
export type SessionResponse = z.output<typeof sessionResponse>

/** POST /api/customers: the address object comes back flattened into top-level fields. */
export const customerResponse = z.object({
  id: z.string(),
  first_name: stringOrNull,
  last_name: stringOrNull,
  email: z.string(),
  phone: stringOrNull,
  address: stringOrNull,
  city: stringOrNull,
  country: stringOrNull,
  postal_code: stringOrNull,
})
export type CustomerResponse = z.output<typeof customerResponse>

/** The 422 body: `{errors:[{message, params:[string], property}], method, status}` with status the integer 422. */
export const validationErrorBody = z.object({
  errors: z.array(z.object({ message: z.string(), params: z.array(z.string()), property: z.string() })),
  method: z.string(),
  status: z.literal(422),
})
export type FieldError = z.output<typeof validationErrorBody>["errors"][number]
