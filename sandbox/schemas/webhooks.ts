/** What the sandbox sends to webhook endpoints: the "Events" section of the other document. */
import { z } from "zod"

export const TRANSACTION_EVENTS = [
  "transaction-svc:transaction:authorized",
  "transaction-svc:transaction:authorize:authorized",
  "transaction-svc:transaction:purchase:approved",
  "transaction-svc:transaction:authorize:declined",
  "transaction-svc:transaction:purchase:declined",
  "transaction-svc:transaction:authorize:pending",
  "transaction-svc:transaction:purchase:pending",
  "transaction-svc:transaction:pending",
  "transaction-svc:transaction:declined",
  "transaction-svc:transaction:management:declined",
  "transaction-svc:transaction:management:approved",
  "transaction-svc:transaction:management:refund:declined",
  "transaction-svc:transaction:management:refund:approved",
  "transaction-svc:transaction:management:void:declined",
  "transaction-svc:transaction:management:void:approved",
  "transaction-svc:transaction:management:capture:declined",
  "transaction-svc:transaction:management:capture:approved",
] as const
export type TransactionEventName = (typeof TRANSACTION_EVENTS)[number]
export const TOKENIZATION_EVENT = "tokenization-webhook:payment-method:tokenized"

const text = z.string()
const textOrNull = z.string().nullable()
const dateTime = z.iso.datetime({ offset: true })

export const transactionEventPayload = z.object({
  id: text,
  merchant_id: text,
  terminal_id: text,
  order_id: text,
  reference: text,
  description: text,
  currency: text,
  payment_link_id: textOrNull,
  parent_id: textOrNull,
  systan: textOrNull,
  authentication_level: textOrNull,
  customer_id: textOrNull,
  outgoing_currency: textOrNull,
  amount: z.int(),
  normalized_amount: z.int(),
  outgoing_amount: z.number().nullable(),
  transaction_type: text,
  processing_code: text,
  response_message: text,
  status: text,
  metadata: z.record(z.string(), z.unknown()),
  created_at: dateTime,
  updated_at: dateTime,
  approval_code: text,
  reference_number: text,
  integration_type: text,
  transaction_initiated_by: text,
  payment_provider_response_code: text,
  payment_provider_response_message: text,
  payment_method_method: textOrNull,
  payment_method_hash: textOrNull,
  payment_method_type: textOrNull,
  payment_method_brand: textOrNull,
  payment_method_masked: textOrNull,
  payment_method_token: textOrNull,
  customer_first_name: text,
  customer_last_name: text,
  customer_address: text,
  customer_city: text,
  customer_country: text,
  customer_postal_code: text,
  customer_email: text,
  customer_phone_number: text,
  authentication_status: text,
  // The last day of the expiry month.
  payment_method_expiry: z.iso.date().nullable(),
  // Null when paid in full; the key is always present.
  number_of_instalments: z.int().nullable(),
})
export type TransactionEventPayload = z.output<typeof transactionEventPayload>

/** The documented (nested) tokenization payload; the flat `data` sample is sent when the sandbox is set so. */
export const tokenizationPayload = z.object({
  payment_method: z.object({
    id: text,
    type: text,
    card: z
      .object({ brand: textOrNull, last_4: textOrNull, bin: textOrNull, masked: textOrNull, exp_month: z.int(), exp_year: z.int() })
      .nullable(),
  }),
  transaction_id: textOrNull,
  customer: z.object({ id: textOrNull, first_name: textOrNull, last_name: textOrNull, email: textOrNull }).nullable(),
  merchant_id: text,
  created_at: dateTime,
})
