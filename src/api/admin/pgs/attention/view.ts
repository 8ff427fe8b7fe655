/**
 * The "Needs attention" list: the follow-ups (late refunds, given-up orders, reconciliation changes, lost answers,
 * transactions stuck for days) and the webhook events a person must look at (flagged money, processing that failed
 * after its retries), each with its order, amount and a plain sentence, open items first.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MedusaContainer } from "@medusajs/framework/types"
import { fromMinorUnits } from "../../../../gateway"
import { eventNeedsAPerson } from "../../../../modules/pgs/admin-queries"
import { listFollowUps, type FollowUpRow } from "../../../../modules/pgs/follow-ups"
import { FOLLOW_UP_TABLE, WEBHOOK_EVENT_TABLE } from "../../../../modules/pgs/models"
import { fromStorableText } from "../../../../modules/pgs/storable"
import { WEBHOOK_RETRY } from "../../../../modules/pgs/webhook-queue"
import { sessionIdFromReference } from "../../../../payments/reference"
import { findOrderIdForCollection, findPgsSession } from "../../../../workflows/pgs-events/lookup"
import type { ListAttentionQuery } from "./validators"

export type AttentionItem = {
  id: string
  source: "follow_up" | "event"
  kind: string
  /** What it is, in the shop admin's words. */
  title: string
  needs_person: boolean
  sentence: string
  order_id: string | null
  transaction_id: string | null
  amount: string | null
  currency_code: string | null
  at: string
  actions: Array<"reread" | "process_again" | "resolve">
}

const TITLES: Record<string, string> = {
  reconciled: "Found by reconciliation",
  late_refund: "Late payment given back",
  gave_up: "Order given up",
  unknown_management: "Answer lost",
  stuck: "Still not final",
  webhooks_refused: "Webhooks refused",
  fulfillment_capture: "Capture on fulfillment",
  flagged_event: "Money without an order",
  failed_event: "Webhook not processed",
}

async function fromFollowUp(container: MedusaContainer, row: FollowUpRow): Promise<AttentionItem> {
  const needsPerson = row.state === "needs_person"
  // Checks and their follow-ups know the payment's reference, not its order: found the way events find theirs.
  const orderId = row.order_id ?? (await orderOfReference(container, row.reference))
  return {
    id: row.id,
    source: "follow_up",
    kind: row.kind,
    // A late payment is given back automatically; open only when that failed or is switched off.
    title: row.kind === "late_refund" && needsPerson ? "Late payment to give back" : (TITLES[row.kind] ?? row.kind),
    needs_person: needsPerson,
    sentence: row.kind === "webhooks_refused" ? refusedSentence(row) : (row.note ?? ""),
    order_id: orderId,
    transaction_id: row.transaction_id,
    amount: row.amount_minor !== null && row.currency_code ? fromMinorUnits(Number(row.amount_minor), row.currency_code) : null,
    currency_code: row.currency_code,
    at: new Date(row.updated_at).toISOString(),
    actions: needsPerson ? [...(row.transaction_id && row.kind !== "late_refund" ? (["reread"] as const) : []), "resolve"] : [],
  }
}

/** Written when read: the count and times change with every refused delivery. */
function refusedSentence(row: FollowUpRow): string {
  const since = new Date(row.created_at).toISOString()
  const last = new Date(row.updated_at).toISOString()
  if (row.state !== "needs_person") return `Webhooks verify again; ${row.checks} deliveries had been refused (the last at ${last}).`
  return (
    `The gateway's webhooks are being refused: their signature does not match PGS_WEBHOOK_PUBLIC_KEY. ${row.checks} ` +
    `${row.checks === 1 ? "delivery" : "deliveries"} refused since ${since}, the last at ${last}. The gateway retries each for 24 hours: ` +
    "set PGS_WEBHOOK_PUBLIC_KEY to the webhook signing key from the gateway dashboard and restart the store. This closes by itself when a delivery verifies."
  )
}

type EventRow = { id: string; event: string; subject_id: string | null; reference: string | null; outcome: string | null; error: string | null; payload: any; received_at: Date }

/** Events that need a person: flagged money (attention:*) and processing that failed after all its retries. */
async function eventsNeedingAPerson(knex: Knex): Promise<EventRow[]> {
  return knex(WEBHOOK_EVENT_TABLE)
    .whereNull("deleted_at")
    .where(eventNeedsAPerson)
    .orderBy("received_at", "desc")
    .limit(100)
}

async function orderOfReference(container: MedusaContainer, reference: string | null): Promise<string | null> {
  const sessionId = reference ? sessionIdFromReference(reference) : null
  const session = sessionId ? await findPgsSession(container, sessionId) : null
  return session ? findOrderIdForCollection(container, session.payment_collection_id) : null
}

async function fromEvent(container: MedusaContainer, row: EventRow): Promise<AttentionItem> {
  const failed = row.outcome === "error"
  const amount = typeof row.payload?.amount === "number" && typeof row.payload?.currency === "string" ? row.payload : null
  const reference = row.reference ? fromStorableText(row.reference) : null
  return {
    id: row.id,
    source: "event",
    kind: failed ? "failed_event" : "flagged_event",
    title: TITLES[failed ? "failed_event" : "flagged_event"]!,
    needs_person: true,
    sentence: failed
      ? `The gateway's message about transaction ${row.subject_id ?? "?"} could not be processed after ${WEBHOOK_RETRY.maxAttempts} tries (${(row.error ?? "").slice(0, 200)}). Fix the cause, then process it again.`
      : `The gateway took money for transaction ${row.subject_id ?? "?"}, but no order records it and it could not be proven this store's payment: refund it at the gateway.`,
    order_id: await orderOfReference(container, reference),
    transaction_id: row.subject_id,
    amount: amount ? fromMinorUnits(amount.amount, amount.currency) : null,
    currency_code: amount ? String(amount.currency).toLowerCase() : null,
    at: new Date(row.received_at).toISOString(),
    actions: ["reread", "process_again", "resolve"],
  }
}

export async function attentionList(container: MedusaContainer, knex: Knex, q: ListAttentionQuery) {
  const events = await Promise.all((await eventsNeedingAPerson(knex)).map((row) => fromEvent(container, row)))
  const followUps = await listFollowUps(knex, { limit: q.limit + q.offset, offset: 0, ...(q.show === "open" ? { states: ["needs_person"] } : {}) })
  const items = [...events, ...(await Promise.all(followUps.rows.map((row) => fromFollowUp(container, row))))].sort(
    (a, b) => Number(b.needs_person) - Number(a.needs_person) || b.at.localeCompare(a.at),
  )
  const open = await knex(FOLLOW_UP_TABLE).where({ state: "needs_person" }).whereNull("deleted_at").count({ n: "*" })
  return {
    items: items.slice(q.offset, q.offset + q.limit),
    count: events.length + followUps.count,
    needs_person: events.length + Number(open[0]?.n ?? 0),
  }
}
