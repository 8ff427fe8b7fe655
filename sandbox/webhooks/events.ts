/**
 * Which webhook a status change sends, and its payload. The spec gives only the event names, so the mapping
 * is ours (README, "Assumptions"): with eventNames "specific" the type-specific names are used where one exists;
 * with "generic" every transaction uses transaction-svc:transaction:{authorized,pending,declined} and
 * management:{approved,declined}. PAYMENT, PAYOUT and OCT always use the generic transaction names.
 */
import type { TransactionEventName, TransactionEventPayload } from "../schemas"
import type { TransactionRecord } from "../core/types"

type Outcome = "approved" | "pending" | "declined"

function outcomeOf(status: TransactionRecord["status"]): Outcome | null {
  switch (status) {
    case "APPROVED":
      return "approved"
    case "PENDING":
      return "pending"
    case "DECLINED":
    case "CANCELED":
    case "INVALID":
    case "SESSION_EXPIRED":
      return "declined"
    case "CREATED":
      return null
  }
}

export function eventNameFor(tx: TransactionRecord, style: "specific" | "generic"): TransactionEventName | null {
  const outcome = outcomeOf(tx.status)
  if (!outcome) return null
  const generic = { approved: "authorized", pending: "pending", declined: "declined" } as const
  switch (tx.transaction_type) {
    case "CAPTURE":
    case "REFUND":
    case "VOID": {
      if (outcome === "pending") return null
      const op = tx.transaction_type.toLowerCase()
      return style === "generic"
        ? `transaction-svc:transaction:management:${outcome}`
        : (`transaction-svc:transaction:management:${op}:${outcome}` as TransactionEventName)
    }
    case "AUTHORIZE":
      if (style === "generic") return `transaction-svc:transaction:${generic[outcome]}`
      return `transaction-svc:transaction:authorize:${outcome === "approved" ? "authorized" : outcome}`
    case "PURCHASE":
      if (style === "generic") return `transaction-svc:transaction:${generic[outcome]}`
      return `transaction-svc:transaction:purchase:${outcome}`
    case "PAYMENT":
    case "PAYOUT":
    case "OCT":
      return `transaction-svc:transaction:${generic[outcome]}`
  }
}

const authLevel = (tx: TransactionRecord) => (tx.authentication_status === "AUTHENTICATED" ? "3DS2" : null)

export function transactionPayload(tx: TransactionRecord): TransactionEventPayload {
  const c = tx.customer ?? {}
  const pm = tx.payment_method
  return {
    id: tx.id,
    merchant_id: tx.merchant_id,
    terminal_id: tx.terminal_id,
    order_id: tx.order_id,
    reference: tx.reference,
    description: tx.description,
    currency: tx.currency,
    payment_link_id: null,
    parent_id: tx.parent_id,
    systan: tx.reference_number ? tx.reference_number.slice(-6) : null,
    authentication_level: authLevel(tx),
    customer_id: c.id ?? null,
    outgoing_currency: null,
    amount: tx.amount,
    normalized_amount: tx.amount,
    outgoing_amount: null,
    transaction_type: tx.transaction_type,
    processing_code: tx.processing_code ?? "",
    response_message: tx.response_message ?? "",
    status: tx.status,
    metadata: tx.metadata,
    created_at: tx.created_at,
    updated_at: tx.updated_at,
    approval_code: tx.approval_code ?? "",
    reference_number: tx.reference_number ?? "",
    integration_type: tx.integration_type,
    transaction_initiated_by: "CUSTOMER",
    payment_provider_response_code: tx.processing_code ?? "",
    payment_provider_response_message: tx.response_message ?? "",
    payment_method_method: pm?.method ?? null,
    payment_method_hash: pm?.hash ?? null,
    payment_method_type: pm?.type ?? null,
    payment_method_brand: pm?.brand ?? null,
    payment_method_masked: pm?.masked ?? null,
    // The token travels in the tokenization event, never on transaction events.
    payment_method_token: null,
    customer_first_name: c.first_name ?? "",
    customer_last_name: c.last_name ?? "",
    customer_address: c.address ?? "",
    customer_city: c.city ?? "",
    customer_country: c.country ?? "",
    customer_postal_code: c.postal_code ?? "",
    customer_email: c.email ?? "",
    customer_phone_number: c.phone ?? "",
    authentication_status: tx.authentication_status ?? "NOT_APPLICABLE",
    payment_method_expiry: tx.payment_method_expiry,
    number_of_instalments: tx.number_of_instalments,
  }
}
