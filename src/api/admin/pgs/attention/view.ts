/**
 * The "Needs attention" list: the follow-ups (late refunds, given-up orders, reconciliation changes, lost answers,
 * transactions stuck for days) and the webhook events a person must look at (flagged money, processing that failed
 * after its retries), each with its order, amount and a plain sentence, open items first, in keyset pages.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { MedusaContainer } from "@medusajs/framework/types"
import { fromMinorUnits } from "../../../../gateway"
import { countEventsNeedingAPerson, eventsNeedingAPerson } from "../../../../modules/pgs/admin-queries"
import { countNeedingAPerson, followUpPage, type FollowUpRow } from "../../../../modules/pgs/follow-ups"
import { encodeCursor, type Cursor } from "../../../../modules/pgs/keyset"
import { fromStorableText } from "../../../../modules/pgs/storable"
import { looseQuery } from "../../../../lib/loose-query"
import { WEBHOOK_RETRY } from "../../../../modules/pgs/webhook-queue"
import { unconfirmedOperationOf } from "../../../../payments/lost-answers"
import { sessionIdFromReference } from "../../../../payments/reference"
import { findOrderIdForCollection, findPgsSession } from "../../../../workflows/pgs-events/lookup"
import type { ListAttentionQuery } from "./validators"
import { cardTestingSentence } from "./card-testing-sentence"

export type AttentionItem = {
  id: string
  source: "follow_up" | "event"
  kind: string
  /** What it is, in the shop admin's words. */
  title: string
  needs_person: boolean
  sentence: string
  order_id: string | null
  /** The order's number as Medusa's dashboard shows it (#12), when the item has an order. */
  order_display_id: number | null
  transaction_id: string | null
  amount: string | null
  currency_code: string | null
  at: string
  actions: Array<"reread" | "process_again" | "remove_unconfirmed" | "resolve">
}

const TITLES: Record<string, string> = {
  reconciled: "Found by reconciliation",
  late_refund: "Late payment given back",
  gave_up: "Order given up",
  unknown_management: "Answer lost",
  stuck: "Still not final",
  webhooks_refused: "Webhooks refused",
  fulfillment_capture: "Capture on fulfillment",
  void_not_made: "Void not made",
  refund_not_made: "Refund not made",
  held_after_cancel: "Still held on the card",
  amount_drift: "Amounts differ from the gateway",
  refund_failed: "Refund failed",
  terminal_refused: "Terminal refused",
  card_testing: "Card testing suspected",
  flagged_event: "Money without an order",
  failed_event: "Webhook not processed",
}

function titleOf(row: FollowUpRow, needsPerson: boolean): string {
  // A late payment is given back automatically; open only when that failed or is switched off.
  if (row.kind === "late_refund" && needsPerson) return "Late payment to give back"
  // Not a lost answer: a capture or refund whose server stopped while asking for it (reconcile/unfinished-operations.ts).
  if (row.kind === "unknown_management" && unconfirmedOperationOf(row.key)) return "Not confirmed by the gateway"
  return TITLES[row.kind] ?? row.kind
}

/**
 * Given back automatically, closed by the gateway's message about a void or refund, or a refund's failure kept for
 * reconciliation: nothing a re-read would find.
 */
const NOT_REREAD = new Set<string>(["late_refund", "void_not_made", "refund_not_made", "refund_failed", "held_after_cancel", "amount_drift"])

/**
 * A refund the gateway never confirmed can be removed from the order (attention/[id]/remove); re-reading the
 * payment's transaction would tell nothing about it, nor about such a capture. Others can be re-read when they name
 * a transaction.
 */
function firstActions(row: FollowUpRow): AttentionItem["actions"] {
  const unconfirmed = row.kind === "unknown_management" ? unconfirmedOperationOf(row.key) : null
  if (unconfirmed) return unconfirmed.kind === "refund" ? ["remove_unconfirmed"] : []
  return row.transaction_id && !NOT_REREAD.has(row.kind) ? ["reread"] : []
}

async function fromFollowUp(container: MedusaContainer, row: FollowUpRow): Promise<ItemWithoutNumber> {
  const needsPerson = row.state === "needs_person"
  // Checks and their follow-ups know the payment's reference, not its order: found the way events find theirs.
  const orderId = row.order_id ?? (await orderOfReference(container, row.reference))
  return {
    id: row.id,
    source: "follow_up",
    kind: row.kind,
    title: titleOf(row, needsPerson),
    needs_person: needsPerson,
    sentence: row.kind === "card_testing" ? await cardTestingSentence(container, row) : row.kind === "webhooks_refused" ? refusedSentence(row) : row.kind === "terminal_refused" ? refusedPaymentsSentence(row) : (row.note ?? ""),
    order_id: orderId,
    transaction_id: row.transaction_id,
    amount: row.amount_minor !== null && row.currency_code ? fromMinorUnits(Number(row.amount_minor), row.currency_code) : null,
    currency_code: row.currency_code,
    at: new Date(row.updated_at).toISOString(),
    actions: needsPerson ? [...firstActions(row), "resolve"] : [],
  }
}

/** "2026-11-27 19:22 UTC": a time in a sentence a person reads, the same in every admin's view. */
const atMinute = (date: Date | string) => `${new Date(date).toISOString().slice(0, 16).replace("T", " ")} UTC`

/** Written when read: the count and times change with every refused delivery. */
function refusedSentence(row: FollowUpRow): string {
  const since = atMinute(row.created_at)
  const last = atMinute(row.updated_at)
  if (row.state !== "needs_person") return `Webhooks verify again; ${row.checks} deliveries had been refused (the last at ${last}).`
  return (
    `The gateway's webhooks are being refused: their signature does not match PGS_WEBHOOK_PUBLIC_KEY, or it is not set. ${row.checks} ` +
    `${row.checks === 1 ? "delivery" : "deliveries"} refused since ${since}, the last at ${last}. The gateway retries each for 24 hours: ` +
    "set PGS_WEBHOOK_PUBLIC_KEY to the webhook signing key from the gateway dashboard and restart the store. This closes by itself when a delivery verifies."
  )
}

/** A terminal's note, with how many payments it refused while the item was open. */
function refusedPaymentsSentence(row: FollowUpRow): string {
  // Attempts, not shoppers: a shopper who tries again is counted again.
  const payments = `${row.checks} payment ${row.checks === 1 ? "attempt" : "attempts"}`
  // Once closed (a settings change, or marked handled), updated_at no longer tells the last refusal: only since when.
  const count =
    row.state === "needs_person"
      ? `${payments} refused since ${atMinute(row.created_at)}, the last at ${atMinute(row.updated_at)}.`
      : `${payments} had been refused since ${atMinute(row.created_at)}.`
  return `${row.note ?? ""} ${count}`.trim()
}

export type EventRow = { id: string; event: string; subject_id: string | null; reference: string | null; outcome: string | null; error: string | null; payload: any; received_at: Date }

async function orderOfReference(container: MedusaContainer, reference: string | null): Promise<string | null> {
  const sessionId = reference ? sessionIdFromReference(reference) : null
  const session = sessionId ? await findPgsSession(container, sessionId) : null
  return session ? findOrderIdForCollection(container, session.payment_collection_id) : null
}

async function fromEvent(container: MedusaContainer, row: EventRow): Promise<ItemWithoutNumber> {
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

type Row = { _cursor_at: string; id: string }

type ItemWithoutNumber = Omit<AttentionItem, "order_display_id">

/** The page's orders' numbers, read at once (a page holds at most 100 items). */
async function withOrderNumbers(container: MedusaContainer, items: ItemWithoutNumber[]): Promise<AttentionItem[]> {
  const ids = [...new Set(items.map((i) => i.order_id).filter((id): id is string => !!id))]
  const { data } = ids.length ? await looseQuery(container).graph({ entity: "order", fields: ["id", "display_id"], filters: { id: ids } }) : { data: [] }
  const numbers = new Map((data as Array<{ id: string; display_id: number | null }>).map((o) => [o.id, o.display_id ?? null]))
  return items.map((i) => ({ ...i, order_display_id: i.order_id ? (numbers.get(i.order_id) ?? null) : null }))
}

/**
 * One keyset page (keyset.ts): first the events a person must look at, then the open follow-ups, then (show=all)
 * the record of what the plugin settled by itself, each part newest first. `next_cursor` is null on the last page.
 */
export async function attentionList(container: MedusaContainer, knex: Knex, q: ListAttentionQuery) {
  const parts: Array<(after: Cursor | null, limit: number) => Promise<Array<{ row: Row; item: () => Promise<ItemWithoutNumber> }>>> = [
    async (after, limit) => ((await eventsNeedingAPerson(knex, after, limit)) as Array<EventRow & Row>).map((row) => ({ row, item: () => fromEvent(container, row) })),
    async (after, limit) => (await followUpPage(knex, "open", after, limit)).map((row) => ({ row, item: () => fromFollowUp(container, row) })),
    ...(q.show === "all"
      ? [async (after: Cursor | null, limit: number) => (await followUpPage(knex, "record", after, limit)).map((row) => ({ row, item: () => fromFollowUp(container, row) }))]
      : []),
  ]
  const found: Array<{ part: number; row: Row; item: () => Promise<ItemWithoutNumber> }> = []
  // One row more than the page, to know whether a next page exists.
  for (let part = q.cursor?.s ?? 0; part < parts.length && found.length <= q.limit; part++) {
    const after = q.cursor && q.cursor.s === part ? q.cursor : null
    for (const r of await parts[part]!(after, q.limit + 1 - found.length)) found.push({ part, ...r })
  }
  const page = found.slice(0, q.limit)
  const last = page[page.length - 1]
  const [events, followUps] = await Promise.all([countEventsNeedingAPerson(knex), countNeedingAPerson(knex)])
  return {
    items: await withOrderNumbers(container, await Promise.all(page.map((f) => f.item()))),
    next_cursor: found.length > q.limit && last ? encodeCursor({ s: last.part, at: last.row._cursor_at, id: last.row.id }) : null,
    needs_person: events + followUps,
  }
}
