/**
 * The follow-up list (models/follow-up.ts) in plain knex: opening one exactly once per key (INSERT … ON CONFLICT DO
 * NOTHING on the unique index, so two processes cannot both open it), the checks that are due, and moving one on.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import { FAILED_REFUND_TRIES_BEFORE_TELLING, FOLLOW_UP_TABLE, type FollowUpKind, type FollowUpState } from "./models/follow-up"
import { newestFirst } from "./keyset"

export type FollowUpRow = {
  id: string
  key: string
  kind: FollowUpKind
  state: FollowUpState
  transaction_id: string | null
  reference: string | null
  order_id: string | null
  amount_minor: string | null
  currency_code: string | null
  note: string | null
  checks: number
  next_check_at: Date | null
  last_status: string | null
  resolved_at: Date | null
  created_at: Date
  updated_at: Date
}

export type NewFollowUp = {
  key: string
  kind: FollowUpKind
  state?: FollowUpState
  transaction_id?: string | null
  reference?: string | null
  order_id?: string | null
  amount_minor?: number | null
  currency_code?: string | null
  note?: string | null
  next_check_at?: Date | null
}

/** Opens the follow-up unless one with its key exists. `opened` is true only for the caller that created it. */
export async function openFollowUp(knex: Knex, input: NewFollowUp): Promise<{ opened: boolean; row: FollowUpRow }> {
  const now = new Date()
  const { amount_minor, ...rest } = input
  const inserted: FollowUpRow[] = await knex(FOLLOW_UP_TABLE)
    .insert({
      ...rest,
      id: generateEntityId(undefined, "pgsfu"),
      state: input.state ?? "watching",
      ...amountColumns(amount_minor ?? null),
      created_at: now,
      updated_at: now,
    })
    .onConflict(knex.raw('("key") where "deleted_at" is null'))
    .ignore()
    .returning("*")
  if (inserted[0]) return { opened: true, row: inserted[0] }
  return { opened: false, row: (await followUpByKey(knex, input.key))! }
}

/** Which of these keys are on the list already. */
export async function existingKeys(knex: Knex, keys: string[]): Promise<string[]> {
  if (!keys.length) return []
  const rows: Array<{ key: string }> = await knex(FOLLOW_UP_TABLE).whereIn("key", keys).whereNull("deleted_at").select("key")
  return rows.map((r) => r.key)
}

/** The keys of one kind's items about one order's transaction. */
export async function keysAbout(knex: Knex, kind: FollowUpKind, about: { order_id: string; transaction_id: string }): Promise<string[]> {
  const rows: Array<{ key: string }> = await knex(FOLLOW_UP_TABLE).where({ kind, ...about }).whereNull("deleted_at").select("key")
  return rows.map((r) => r.key)
}

export async function followUpByKey(knex: Knex, key: string): Promise<FollowUpRow | null> {
  return (await knex(FOLLOW_UP_TABLE).where({ key }).whereNull("deleted_at").first()) ?? null
}

export async function followUpById(knex: Knex, id: string): Promise<FollowUpRow | null> {
  return (await knex(FOLLOW_UP_TABLE).where({ id }).whereNull("deleted_at").first()) ?? null
}

export type FollowUpPatch = Partial<Pick<FollowUpRow, "kind" | "state" | "note" | "checks" | "next_check_at" | "last_status" | "resolved_at" | "order_id">>

export async function updateFollowUp(knex: Knex, id: string, patch: FollowUpPatch): Promise<void> {
  await knex(FOLLOW_UP_TABLE).where({ id }).update({ ...patch, updated_at: new Date() })
}

/** The amount and its raw BigNumber column, as the model writes them. */
const amountColumns = (amountMinor: number | null) => ({
  amount_minor: amountMinor,
  raw_amount_minor: amountMinor === null ? null : JSON.stringify({ value: String(amountMinor), precision: 20 }),
})

/** An open item of which part was settled: what it is about now, and its note saying so. */
export async function updateFollowUpAmount(knex: Knex, id: string, amountMinor: number, note: string): Promise<void> {
  await knex(FOLLOW_UP_TABLE).where({ id }).update({ ...amountColumns(amountMinor), note, updated_at: new Date() })
}

/** Closes an item a person must act on, once: false when it was closed already (by them, or by the plugin). */
export async function closeOpenFollowUp(knex: Knex, id: string, patch: FollowUpPatch): Promise<boolean> {
  const closed = await knex(FOLLOW_UP_TABLE).where({ id, state: "needs_person" }).whereNull("deleted_at").update({ ...patch, state: "done", updated_at: new Date() })
  return closed > 0
}

/**
 * Open items of one kind under these keys handed to another item that says the same: watched (off the open list, so
 * one thing is listed once) and still open to whatever settles them (a gateway message that confirms the operation).
 */
export async function handOverOpenItems(knex: Knex, kind: FollowUpKind, keys: string[], sentence: string): Promise<number> {
  if (!keys.length) return 0
  return knex(FOLLOW_UP_TABLE)
    .whereIn("key", keys)
    .where({ kind, state: "needs_person" })
    .whereNull("deleted_at")
    .update({ state: "watching", next_check_at: null, note: knex.raw(`trim(coalesce("note", '') || ' ' || ?)`, [sentence]), updated_at: new Date() })
}

/** The items of this kind under these keys that are not closed (needs a person, or watched). */
export async function openItemsOf(knex: Knex, kind: FollowUpKind, keys: string[]): Promise<FollowUpRow[]> {
  if (!keys.length) return []
  return knex(FOLLOW_UP_TABLE).whereIn("key", keys).where({ kind }).whereNot({ state: "done" }).whereNull("deleted_at").select("*")
}

/** Opens again an item closed with `closedWith`, unless something wrote to it since (its note changed). */
export async function reopenFollowUp(knex: Knex, id: string, input: { closedWith: string; note: string | null }): Promise<void> {
  await knex(FOLLOW_UP_TABLE).where({ id, state: "done", note: input.closedWith }).update({ state: "needs_person", resolved_at: null, note: input.note, updated_at: new Date() })
}

/**
 * Claims a due check for one runner: one conditional UPDATE moves its next check a lease ahead, so another process
 * (or a second run in this one) finds it not due. A runner that dies mid-check leaves it to be claimed after the lease.
 */
export async function claimDueCheck(knex: Knex, id: string, now: Date, leaseMs: number, handedOver = false): Promise<FollowUpRow | null> {
  const [row] = await knex(FOLLOW_UP_TABLE)
    .where({ id })
    .whereNull("deleted_at")
    .where((q) => dueNow(q, now, handedOver))
    .update({ next_check_at: new Date(now.getTime() + leaseMs), updated_at: new Date() })
    .returning("*")
  return (row as FollowUpRow | undefined) ?? null
}

/**
 * Due: a watched item whose time has come (none set: at once). `handedOver`: also one handed to a person, or marked
 * handled by one, that still has a time set (a failed refund's listing, tried again on its schedule:
 * reconcile/failed-refunds.ts).
 */
function dueNow(q: Knex.QueryBuilder, now: Date, handedOver: boolean): void {
  q.where((w) => w.where("state", "watching").where((t) => t.whereNull("next_check_at").orWhere("next_check_at", "<=", now)))
  if (handedOver) q.orWhere((w) => w.whereNot("state", "watching").where("next_check_at", "<=", now))
}

/** Follow-ups of a kind whose time has come (by default, transaction checks), oldest first. */
export async function dueChecks(knex: Knex, now: Date, limit: number, kind: FollowUpKind = "check", handedOver = false): Promise<FollowUpRow[]> {
  return knex(FOLLOW_UP_TABLE)
    .where({ kind })
    .whereNull("deleted_at")
    .where((q) => dueNow(q, now, handedOver))
    .orderBy("next_check_at", "asc")
    .limit(limit)
}

/**
 * A page of what the admin's "Needs attention" page lists, newest first after `after`: the open items
 * (`needs_person`), or the record of what the plugin settled by itself. Each part has its own index.
 */
export async function followUpPage(
  knex: Knex,
  part: "open" | "record",
  after: { at: string; id: string } | null,
  limit: number,
): Promise<Array<FollowUpRow & { _cursor_at: string }>> {
  const q = knex(FOLLOW_UP_TABLE).select("*").whereNull("deleted_at")
  if (part === "open") q.where("state", "needs_person").whereNot("kind", "check")
  // A failed refund is reconciliation's note to itself (reconcile/failed-refunds.ts): what it finds is its own item
  // ("Refund not made"), and a person's refund that failed was told to them where they asked for it. One handed to a
  // person (its tries counted out) stays on the record once handled, as every item a person saw does.
  else
    q.whereNot("state", "needs_person")
      .whereNot("kind", "check")
      .whereNot((w) => w.where("kind", "refund_failed").where("checks", "<", FAILED_REFUND_TRIES_BEFORE_TELLING))
  return newestFirst(q, knex, "updated_at", after, limit)
}

/** How many follow-ups a person must act on (a small set: its own partial index). */
export async function countNeedingAPerson(knex: Knex): Promise<number> {
  const [row] = await knex(FOLLOW_UP_TABLE).where("state", "needs_person").whereNull("deleted_at").count({ n: "*" })
  return Number(row?.n ?? 0)
}
