/**
 * What the gateway and the event log call things, in a shop admin's words. The one place the dashboard turns
 * event names, outcomes and payment states into sentences (the server keeps its own names for logs and tests).
 */

/** Management events name their operation, except the generic ones: their transaction type says it then. */
const MANAGEMENT: Record<string, [done: string, refused: string]> = {
  capture: ["Captured at the gateway", "Capture refused by the gateway"],
  refund: ["Refunded at the gateway", "Refund refused by the gateway"],
  void: ["Voided at the gateway", "Void refused by the gateway"],
}

export function eventWords(event: string, transactionType: string | null = null): string {
  if (event.startsWith("tokenization-webhook:")) return "Card saved at the gateway"
  const management = /:management(?::(capture|refund|void))?:(approved|declined)$/.exec(event)
  if (management) {
    const words = MANAGEMENT[(management[1] ?? transactionType ?? "").toLowerCase()] ?? ["Changed at the gateway", "Change refused by the gateway"]
    return management[2] === "approved" ? words[0] : words[1]
  }
  if (/:(authorized|approved)$/.test(event)) return "Payment approved"
  if (/:declined$/.test(event)) return "Declined"
  if (/:pending$/.test(event)) return "Pending"
  return event
}

/** Short reasons for outcomes that changed nothing, by their name after "ignored:". */
const IGNORED: Record<string, string> = {
  made_by_medusa: "Made in Medusa",
  already_recorded: "Already recorded",
  already_captured: "Already captured",
  already_canceled: "Already canceled",
  already_saved: "Card already saved",
  already_applied: "Already recorded in Medusa",
  collection_pending: "Not applied yet: the payment is still pending",
  collection_requires_more: "Not applied yet: the payer has a step left",
  collection_not_approved: "Not applied: the payment was not approved",
  collection_unknown_session: "Not applied: the payment no longer exists here",
  other_attempt: "Not applied: it belongs to another payment attempt",
  no_gateway_customer: "Not applied: the card was saved for no customer",
  unknown_gateway_customer: "Not applied: the gateway's customer is not one of this store's",
  card_of_another_customer: "Not applied: the card is saved for another customer",
  payout_already_final: "Payout already up to date",
  payout_pending: "Payout still pending at the gateway",
  payout_amount_mismatch: "Not applied: the amount differs from the payout's",
  payout_terminal_mismatch: "Not applied: a payout of another terminal",
  amount_mismatch: "Not applied: the amount differs from the order's",
  foreign_reference: "Not a payment of this store",
  reference_mismatch: "Not applied: it belongs to another payment attempt",
  stale_attempt: "Not applied: an older payment attempt",
  unknown_session: "Not applied: the payment no longer exists here",
  unknown_transaction: "Not applied: the gateway does not know it",
  session_already_settled: "Nothing to do: the payment was already settled",
  session_already_failed: "Nothing to do: the payment had failed already (another card declined on it)",
  late_money_already_handled: "Already given back",
  late_money_given_back: "Money paid late, given back automatically",
  management_declined: "The gateway refused it: nothing changed",
  pending: "Waiting for the final answer",
  operation_mismatch: "Not applied: the gateway reports another operation",
  unknown_operation: "Not applied: unknown operation",
  unsupported: "Not something this store acts on",
  unreachable: "Not something this store acts on",
}

const APPLIED: Record<string, string> = {
  authorized: "Recorded in Medusa (authorized)",
  collection_authorized: "Recorded in Medusa (authorized)",
  captured: "Recorded in Medusa",
  successful: "Recorded in Medusa",
  external_capture: "Capture made in the gateway dashboard, recorded here",
  external_refund: "Refund made in the gateway dashboard, recorded here",
  external_void: "Void made in the gateway dashboard, recorded here",
  card_saved: "Card saved for the customer",
  card_saved_for_merchant_charges: "Card saved for the customer, who agreed to later charges by the shop",
}

/** What processing an event did; null while it was not processed yet. */
export function outcomeWords(outcome: string | null, error: string | null = null): string | null {
  if (!outcome) return error ? "Not processed: it failed and is tried again" : null
  if (outcome === "error") return "Not processed: it failed and is tried again"
  const [kind, name = ""] = splitOutcome(outcome)
  if (kind === "attention") return "Needs attention"
  if (kind === "handled") return "Handled by a person"
  if (kind === "deferred") return "Waiting for an earlier event"
  if (kind === "applied") {
    if (name.startsWith("late_money_")) return "Given back automatically"
    if (name.startsWith("payout_")) return `Payout ${name.slice("payout_".length)}`
    const failed = /^(\w+?)_order_(\w+)$/.exec(name) ?? /^session_(\w+)$/.exec(name)
    if (failed) return `Payment marked ${failed[failed.length - 1] === "error" ? "failed" : failed[failed.length - 1]} in Medusa`
    return APPLIED[name] ?? "Recorded in Medusa"
  }
  if (kind === "ignored") {
    if (name.startsWith("gateway_status_")) return `Not applied: the gateway says ${name.slice("gateway_status_".length)}`
    return IGNORED[name] ?? (name.startsWith("payout_") ? "Payout already up to date" : "Nothing to do")
  }
  return outcome
}

function splitOutcome(outcome: string): [string, string?] {
  const i = outcome.indexOf(":")
  return i < 0 ? [outcome] : [outcome.slice(0, i), outcome.slice(i + 1)]
}

/** Where an event came from: the gateway's webhook, or reconciliation reading the status endpoint. */
export const sourceWords = (source: "webhook" | "reconciliation") =>
  source === "reconciliation" ? "Read from the gateway by reconciliation (no webhook came)" : "Webhook from the gateway"

/** Medusa's own state of one payment (gateway-view.ts computes it). */
export type MedusaPaymentState = "awaiting" | "authorized" | "partially_captured" | "captured" | "partially_refunded" | "refunded" | "canceled" | "failed"

const STATES: Record<MedusaPaymentState, string> = {
  awaiting: "Awaiting payment",
  authorized: "Authorized, not captured yet",
  partially_captured: "Partially captured",
  captured: "Captured",
  partially_refunded: "Partially refunded",
  refunded: "Refunded",
  canceled: "Canceled",
  failed: "Payment failed",
}

export const stateWords = (state: MedusaPaymentState) => STATES[state] ?? state

/** The colours Medusa's own payment status badges use for the same states, so the two sections read alike. */
export function stateColor(state: MedusaPaymentState): "green" | "orange" | "red" | "grey" | "blue" {
  if (state === "captured") return "green"
  if (state === "awaiting" || state === "authorized" || state === "partially_captured" || state === "partially_refunded") return "orange"
  if (state === "failed" || state === "refunded" || state === "canceled") return "red"
  return "blue"
}

/** Who made a capture or refund, after its amount ("Captured 12.00 EUR by …"); Medusa 2.18–2.20 record no author for some. */
export function actorWords(by: { kind: string; label: string }): string {
  return by.kind === "not_recorded" ? "author not recorded by Medusa" : `by ${by.label}`
}

/** The gateway's status of a transaction, in words (the badge). */
export function gatewayStatusWords(status: string): string {
  const s = status.toLowerCase().replace(/_/g, " ")
  return s.charAt(0).toUpperCase() + s.slice(1)
}

const TYPES: Record<string, string> = {
  AUTHORIZE: "Authorize, capture later",
  PURCHASE: "Purchase, captured at once",
  PAYMENT: "Payment, captured at once",
}

export const transactionTypeWords = (type: string) => TYPES[type.toUpperCase()] ?? type
