/**
 * The webhook event log as a queue, in plain knex over the model's table: recording deliveries (many in one
 * statement), when a failed event may run again (capped exponential backoff, a capped number of attempts) and
 * which recorded events are due for the retry job.
 */
import { randomBytes } from "node:crypto"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { factory } from "ulid"
import { WEBHOOK_EVENT_TABLE } from "./models/table-names"
import { toStorableJson, toStorableText } from "./storable"
import { storableForReading } from "../../gateway/text"
import { IDEMPOTENCY_METADATA_KEY } from "../../gateway/resources/modifications"
import type { NewWebhookEvent, RecordedWebhookEvent } from "./webhook-event-record"

/**
 * Ids like Medusa's generateEntityId (prefix + ULID), whose ULIDs draw crypto.randomBytes(1) per character: in a
 * webhook burst that was ~0.1 ms of CPU per delivery (measured, bench:checkout). Same ULIDs, random bytes pooled.
 */
let randomPool = Buffer.alloc(0)
let randomAt = 0
const ulid = factory(() => {
  if (randomAt >= randomPool.length) [randomPool, randomAt] = [randomBytes(4096), 0]
  return randomPool[randomAt++]! / 0xff
})
const webhookEventId = () => `pgswh_${ulid()}`

/**
 * Insert each delivery unless its delivery_key is already recorded, in one INSERT … ON CONFLICT DO NOTHING on the
 * unique index: concurrent deliveries of the same bytes (in this batch or another) cannot both come back new.
 * Results are in input order.
 */
export async function insertDeliveries(
  knex: Knex,
  entries: Array<NewWebhookEvent & { received_at: Date }>,
): Promise<RecordedWebhookEvent[]> {
  const firstIndex = new Map<string, number>()
  entries.forEach((e, i) => firstIndex.has(e.delivery_key) || firstIndex.set(e.delivery_key, i))
  const now = new Date()
  const rows = [...firstIndex.values()].map((i) => {
    const e = entries[i]!
    // Strings PostgreSQL cannot hold (U+0000, lone surrogates) are stored reversibly (storable.ts).
    return {
      ...e,
      event: toStorableText(e.event),
      subject_id: toStorableText(e.subject_id),
      reference: toStorableText(e.reference),
      id: webhookEventId(),
      payload: JSON.stringify(toStorableJson(e.payload)),
      created_at: now,
      updated_at: now,
    }
  })
  const inserted: Array<{ id: string; delivery_key: string }> = await knex(WEBHOOK_EVENT_TABLE)
    .insert(rows)
    // The predicate lets PostgreSQL use the index whether it is plain (migrations) or partial (Medusa 2.18 models).
    .onConflict(knex.raw('("delivery_key") where "deleted_at" is null'))
    .ignore()
    .returning(["id", "delivery_key"])
  const ids = new Map(inserted.map((r) => [r.delivery_key, String(r.id)]))
  const earlier = [...firstIndex.keys()].filter((key) => !ids.has(key))
  const found: Array<{ id: string; delivery_key: string }> = earlier.length
    ? await knex(WEBHOOK_EVENT_TABLE).select("id", "delivery_key").whereIn("delivery_key", earlier)
    : []
  const recordedBefore = new Map(found.map((r) => [r.delivery_key, String(r.id)]))
  return entries.map((e, i) => {
    const id = ids.get(e.delivery_key)
    if (id) return { id, is_new: firstIndex.get(e.delivery_key) === i }
    const before = recordedBefore.get(e.delivery_key)
    if (!before) throw new Error("insertDeliveries: a delivery was neither inserted nor found")
    return { id: before, is_new: false }
  })
}

/** An authentic delivery that is not an event we know: given its final outcome at once, never processed. */
export function markDeliveryUnsupported(knex: Knex, id: string): Promise<void> {
  return writeEventOutcome(knex, id, { processed_at: new Date(), outcome: "unsupported", error: null, next_attempt_at: null })
}

/** An event-log row as processing reads it (texts and payload in their stored form, see storable.ts). */
export type EventToRun = {
  id: string
  event: string
  reference: string | null
  subject_id: string | null
  payload: unknown
  attempts: number
  received_at: Date
  processed_at: Date | null
  outcome: string | null
}

const EVENT_TO_RUN_COLUMNS = ["id", "event", "reference", "subject_id", "payload", "attempts", "received_at", "processed_at", "outcome"]

/** One event's row, for processing; null when it is not (or no longer) in the log. */
export async function eventToRun(knex: Knex, id: string): Promise<EventToRun | null> {
  return (await knex(WEBHOOK_EVENT_TABLE).select(EVENT_TO_RUN_COLUMNS).where({ id }).whereNull("deleted_at").first()) ?? null
}

/**
 * Read once, under processing's lock on the reference: this event's row, the unprocessed events received before it
 * for the same reference (run first, so processing follows delivery order) and the ones deferred until a payment
 * exists. Oldest first; one statement on the reference's index.
 */
export async function eventsToRunWith(knex: Knex, event: Pick<EventToRun, "id" | "reference" | "received_at">): Promise<EventToRun[]> {
  const rows = knex(WEBHOOK_EVENT_TABLE).select(EVENT_TO_RUN_COLUMNS).whereNull("deleted_at")
  if (!event.reference) return rows.where({ id: event.id })
  return rows
    .where({ reference: event.reference })
    .where((which) =>
      which
        .where({ id: event.id })
        .orWhere((waiting) => waiting.whereNull("processed_at").whereNull("outcome").where("received_at", "<=", event.received_at))
        .orWhere("outcome", "like", "deferred:%"),
    )
    .orderBy("received_at", "asc")
}

/** What processing an event wrote on its row: its outcome, or its error and when it may run again. */
export type EventOutcomeWrite =
  | { processed_at: Date; outcome: string; error: null; next_attempt_at: null }
  | { outcome: "error"; error: string; attempts: number; next_attempt_at: Date | null }

/**
 * One UPDATE by id (the module service's update reads the row first, in a transaction of its own: four statements
 * on every event processed). The error is text for a person, shown as it is: what PostgreSQL cannot hold (U+0000,
 * a broken surrogate pair, also one the length cut made) becomes U+FFFD.
 */
export async function writeEventOutcome(knex: Knex, id: string, write: EventOutcomeWrite): Promise<void> {
  const patch = write.error === null ? write : { ...write, error: storableForReading(write.error) }
  await knex(WEBHOOK_EVENT_TABLE).update({ ...patch, updated_at: new Date() }).where({ id }).whereNull("deleted_at")
}

export type ManagementEventRow = { id: string; subject_id: string | null; processed_at: Date | null; outcome: string | null }

/** The gateway's management webhooks of this reference echoing this idempotency key (a capture or refund row's id, a void's payment id). */
const managementEventsWithKey = (knex: Knex, reference: string, key: string) =>
  knex(WEBHOOK_EVENT_TABLE)
    .where({ reference: toStorableText(reference) })
    .where("event", "like", "transaction-svc:transaction:management:%")
    .whereRaw("payload->'metadata'->>? = ?", [IDEMPOTENCY_METADATA_KEY, key])
    .whereNull("deleted_at")

/** The first such webhook, if it came. */
export async function managementEventFor(knex: Knex, reference: string, key: string): Promise<ManagementEventRow | null> {
  const row = await managementEventsWithKey(knex, reference, key).orderBy("received_at", "asc").first("id", "subject_id", "processed_at", "outcome")
  return (row as ManagementEventRow | undefined) ?? null
}

/**
 * The gateway's management webhooks echoing this key that were taken for Medusa's own call become due for the retry
 * job again (the call failed after all); how many.
 */
export async function runAgainTakenForMedusas(knex: Knex, reference: string, key: string): Promise<number> {
  const changed = await managementEventsWithKey(knex, reference, key)
    .where({ outcome: "ignored:made_by_medusa" })
    .whereNotNull("processed_at")
    .update({ processed_at: null, outcome: null, next_attempt_at: new Date(), updated_at: new Date() })
  return Number(changed)
}

export const WEBHOOK_RETRY = {
  /** Processing runs that may fail before the event is left with its error for good. */
  maxAttempts: 6,
  /** 1 min, 2, 4, 8, 16: the last attempt runs about half an hour after the first failure. */
  baseDelayMs: 60_000,
  maxDelayMs: 60 * 60_000,
  /**
   * A recorded event not started after this long was lost (the process stopped between the answer and its
   * subscriber); younger ones are left to the subscriber, which may still be working through a burst.
   */
  graceMs: 2 * 60_000,
  /** Events per job run. */
  batch: 50,
}

/** When an event that has now failed `attempts` times may run again; null once its attempts are used up. */
export function nextAttemptAt(attempts: number, now: Date): Date | null {
  if (attempts >= WEBHOOK_RETRY.maxAttempts) return null
  const delay = Math.min(WEBHOOK_RETRY.maxDelayMs, WEBHOOK_RETRY.baseDelayMs * 2 ** Math.max(0, attempts - 1))
  return new Date(now.getTime() + delay)
}

/**
 * Events without a final outcome that are due at `now`, oldest first: failed ones whose backoff has passed, and
 * ones never started (no next_attempt_at) once the grace period after their arrival has passed.
 */
export async function dueWebhookEventIds(knex: Knex, now: Date, limit = WEBHOOK_RETRY.batch): Promise<string[]> {
  const rows: Array<{ id: string }> = await knex(WEBHOOK_EVENT_TABLE)
    .select("id")
    .whereNull("processed_at")
    .whereNull("deleted_at")
    .where("attempts", "<", WEBHOOK_RETRY.maxAttempts)
    .whereRaw("coalesce(next_attempt_at, received_at + make_interval(secs => ?)) <= ?", [WEBHOOK_RETRY.graceMs / 1000, now])
    .orderBy("received_at", "asc")
    .limit(limit)
  return rows.map((r) => String(r.id))
}
