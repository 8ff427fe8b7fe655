/**
 * A final status read from the gateway's status endpoint, recorded in the event log as if the gateway had sent its
 * webhook, so it is applied by exactly the path a webhook takes (same handlers, same lock, at most once, never
 * backwards). The delivery key names the transaction and its final status: two processes that read the same
 * status record one event, and a final status is recorded once.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { FINAL_STATUSES, type Transaction, type TransactionEventName, type TransactionEventPayload } from "../../gateway"
import { insertDeliveries } from "../../modules/pgs/webhook-queue"

/** The prefix of delivery keys of events read from the status endpoint (webhook deliveries have a SHA-512 hex). */
export const GATEWAY_READ_KEY_PREFIX = "reconciliation:"

export const isGatewayRead = (deliveryKey: string) => deliveryKey.startsWith(GATEWAY_READ_KEY_PREFIX)

/** The webhook the gateway sends for this final status (the other document, "Events"); null while not final. */
export function eventNameFor(tx: Pick<Transaction, "status" | "transaction_type">): TransactionEventName | null {
  if (!FINAL_STATUSES.has(tx.status)) return null
  const type = tx.transaction_type.toUpperCase()
  if (tx.status === "APPROVED") {
    if (type === "AUTHORIZE") return "transaction-svc:transaction:authorize:authorized"
    if (type === "PURCHASE") return "transaction-svc:transaction:purchase:approved"
    return "transaction-svc:transaction:authorized"
  }
  if (type === "AUTHORIZE") return "transaction-svc:transaction:authorize:declined"
  if (type === "PURCHASE") return "transaction-svc:transaction:purchase:declined"
  return "transaction-svc:transaction:declined"
}

/** The event body: the handlers only take the transaction's identity from it and read the rest from the gateway. */
export function payloadFrom(tx: Transaction): TransactionEventPayload {
  const pm = tx.payment_method
  const pr = tx.processing_result
  return {
    id: tx.id,
    merchant_id: tx.merchant_id,
    terminal_id: tx.terminal_id,
    order_id: tx.order_id,
    reference: tx.reference,
    description: tx.description,
    currency: tx.currency,
    payment_link_id: null,
    parent_id: null,
    systan: null,
    authentication_level: null,
    customer_id: null,
    outgoing_currency: null,
    amount: tx.amount,
    normalized_amount: tx.normalized_amount,
    outgoing_amount: null,
    transaction_type: tx.transaction_type,
    processing_code: tx.processing_code ?? "",
    response_message: tx.response_message ?? "",
    status: tx.status,
    metadata: {},
    created_at: new Date().toISOString(),
    updated_at: new Date().toISOString(),
    approval_code: pr?.approval_code ?? "",
    reference_number: pr?.reference_number ?? "",
    integration_type: tx.channel,
    transaction_initiated_by: "",
    payment_provider_response_code: "",
    payment_provider_response_message: "",
    payment_method_method: pm?.method ?? null,
    payment_method_hash: pm?.hash ?? null,
    payment_method_type: pm?.type ?? null,
    payment_method_brand: pm?.brand ?? null,
    payment_method_masked: pm?.masked ?? null,
    payment_method_token: null,
    customer_first_name: "",
    customer_last_name: "",
    customer_address: "",
    customer_city: "",
    customer_country: "",
    customer_postal_code: "",
    customer_email: "",
    customer_phone_number: "",
    authentication_status: "",
    payment_method_expiry: null,
    number_of_instalments: null,
  }
}

/** Records the read as an event (once per transaction and final status); null when the status is not final. */
export async function recordGatewayRead(knex: Knex, tx: Transaction): Promise<{ id: string; is_new: boolean } | null> {
  const event = eventNameFor(tx)
  if (!event) return null
  const [recorded] = await insertDeliveries(knex, [
    {
      delivery_key: `${GATEWAY_READ_KEY_PREFIX}${tx.id}:${tx.status}`,
      event,
      subject_id: tx.id,
      reference: tx.reference,
      payload: payloadFrom(tx),
      received_at: new Date(),
    },
  ])
  return recorded!
}
