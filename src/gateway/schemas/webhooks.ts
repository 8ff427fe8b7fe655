/** Webhook bodies (the other document, "Events"): a typed union of every event, both tokenization forms. */
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
export const TOKENIZATION_EVENT = "tokenization-webhook:payment-method:tokenized" as const

const nstr = z.string().nullable()

export const transactionEventPayload = z.object({
  id: z.string(),
  merchant_id: z.string(),
  terminal_id: z.string(),
  order_id: z.string(),
  reference: z.string(),
  description: z.string(),
  currency: z.string(),
  payment_link_id: nstr,
  parent_id: nstr,
  systan: nstr,
  authentication_level: nstr,
  customer_id: nstr,
  outgoing_currency: nstr,
  amount: z.int(),
  normalized_amount: z.int(),
  outgoing_amount: z.number().nullable(),
  transaction_type: z.string(),
  processing_code: z.string(),
  response_message: z.string(),
  status: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: z.iso.datetime({ offset: true }),
  updated_at: z.iso.datetime({ offset: true }),
  approval_code: z.string(),
  reference_number: z.string(),
  integration_type: z.string(),
  transaction_initiated_by: z.string(),
  payment_provider_response_code: z.string(),
  payment_provider_response_message: z.string(),
  payment_method_method: nstr,
  payment_method_hash: nstr,
  payment_method_type: nstr,
  payment_method_brand: nstr,
  payment_method_masked: nstr,
  payment_method_token: nstr,
  customer_first_name: z.string(),
  customer_last_name: z.string(),
  customer_address: z.string(),
  customer_city: z.string(),
  customer_country: z.string(),
  customer_postal_code: z.string(),
  customer_email: z.string(),
  customer_phone_number: z.string(),
  authentication_status: z.string(),
  payment_method_expiry: z.iso.date().nullable(),
  number_of_instalments: z.int().nullable(),
})
export type TransactionEventPayload = z.infer<typeof transactionEventPayload>

export const transactionEvent = z.object({ event: z.enum(TRANSACTION_EVENTS), payload: transactionEventPayload })

/** The documented tokenization payload. */
export const tokenizationPayloadNested = z.object({
  payment_method: z.object({
    id: z.string(),
    type: z.string(),
    card: z
      .object({
        brand: nstr,
        last_4: nstr,
        bin: nstr,
        masked: nstr,
        exp_month: z.int().nullable(),
        exp_year: z.int().nullable(),
      })
      .nullable(),
  }),
  transaction_id: nstr,
  customer: z.object({ id: nstr, first_name: nstr, last_name: nstr, email: nstr }).nullable(),
  merchant_id: z.string(),
  created_at: z.iso.datetime({ offset: true }),
})
/** The flat `data` form shown by a sample elsewhere in the spec; never reconciled with the nested one. */
export const tokenizationPayloadFlat = z.object({
  data: z.object({
    payment_method_id: z.string(),
    payment_method_type: z.string(),
    card_brand: nstr.optional(),
    card_bin: nstr.optional(),
    card_last_4: nstr.optional(),
    card_masked: nstr.optional(),
    card_exp_month: z.union([z.int(), z.string()]).nullable().optional(),
    card_exp_year: z.union([z.int(), z.string()]).nullable().optional(),
    customer_id: nstr.optional(),
    transaction_id: nstr.optional(),
  }),
})
export const tokenizationEvent = z.object({
  event: z.literal(TOKENIZATION_EVENT),
  payload: z.union([tokenizationPayloadNested, tokenizationPayloadFlat]),
})

export const webhookEvent = z.discriminatedUnion("event", [transactionEvent, tokenizationEvent])
export type WebhookEvent = z.infer<typeof webhookEvent>
