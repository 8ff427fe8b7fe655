/** The closed list of events we act on, by kind; everything else is recorded and left alone. */
import { TOKENIZATION_EVENT, type TransactionEventName, type WebhookEvent } from "../../gateway"

export type EventKind = "approval" | "failure" | "pending" | "management_approved" | "management_declined" | "tokenization"

const KINDS: Record<TransactionEventName, EventKind> = {
  "transaction-svc:transaction:authorized": "approval",
  "transaction-svc:transaction:authorize:authorized": "approval",
  "transaction-svc:transaction:purchase:approved": "approval",
  "transaction-svc:transaction:authorize:declined": "failure",
  "transaction-svc:transaction:purchase:declined": "failure",
  "transaction-svc:transaction:declined": "failure",
  "transaction-svc:transaction:authorize:pending": "pending",
  "transaction-svc:transaction:purchase:pending": "pending",
  "transaction-svc:transaction:pending": "pending",
  "transaction-svc:transaction:management:approved": "management_approved",
  "transaction-svc:transaction:management:capture:approved": "management_approved",
  "transaction-svc:transaction:management:refund:approved": "management_approved",
  "transaction-svc:transaction:management:void:approved": "management_approved",
  "transaction-svc:transaction:management:declined": "management_declined",
  "transaction-svc:transaction:management:capture:declined": "management_declined",
  "transaction-svc:transaction:management:refund:declined": "management_declined",
  "transaction-svc:transaction:management:void:declined": "management_declined",
}

export function kindOf(event: WebhookEvent): EventKind {
  return event.event === TOKENIZATION_EVENT ? "tokenization" : KINDS[event.event]
}

export type ManagementOperation = "CAPTURE" | "REFUND" | "VOID"

/** The operation of a management event: from the specific name, else (generic name) from transaction_type. */
export function managementOperationOf(eventName: string, transactionType: string): ManagementOperation | null {
  const m = /management:(capture|refund|void):/.exec(eventName)
  const op = (m ? m[1]! : transactionType).toUpperCase()
  return op === "CAPTURE" || op === "REFUND" || op === "VOID" ? op : null
}
