/**
 * Retention (docs/retention.md): what is older than `retentionDays` and settled is deleted, in bounded batches (one
 * DELETE of at most `batch` rows at a time, oldest first, each on an index), so a store that turns retention on
 * after two years is pruned over several runs without one long lock. Kept whatever its age:
 * - webhook events not processed yet, flagged for a person (attention:*), or about a transaction or reference an
 *   open follow-up or an unsettled payout (CREATING, PENDING) still watches;
 * - follow-ups not done (watched, or waiting for a person);
 * - retired sessions whose transaction an open follow-up still watches;
 * - payouts not final (CREATING, PENDING), and saved cards in use.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { FOLLOW_UP_TABLE, PAYOUT_TABLE, RETIRED_SESSION_TABLE, SAVED_CARD_TABLE, WEBHOOK_EVENT_TABLE } from "./models"

export const RETENTION = {
  /** Rows per DELETE. */
  batch: 1000,
  /** Batches per table per run: a run deletes at most batch × this per table (the job runs hourly). */
  maxBatches: 50,
}

const DAY_MS = 86_400_000
const OPEN = `state <> 'done' and deleted_at is null`
const UNSETTLED_PAYOUT = `status in ('CREATING', 'PENDING')`

/** One bounded DELETE per table: the ids of at most `limit` rows, oldest first, that may go. */
const BATCHES: Record<string, (limit: number) => string> = {
  [WEBHOOK_EVENT_TABLE]: (limit) => `
    delete from "${WEBHOOK_EVENT_TABLE}" where id in (
      select e.id from "${WEBHOOK_EVENT_TABLE}" e
      where e.received_at < :cutoff and e.processed_at is not null
        and (e.outcome is null or e.outcome not like 'attention:%')
        and not exists (select 1 from "${FOLLOW_UP_TABLE}" f where f.transaction_id = e.subject_id and f.${OPEN})
        and not exists (select 1 from "${FOLLOW_UP_TABLE}" f where f.reference = e.reference and f.${OPEN})
        and not exists (select 1 from "${PAYOUT_TABLE}" p where p.transaction_id = e.subject_id and p.${UNSETTLED_PAYOUT})
        and not exists (select 1 from "${PAYOUT_TABLE}" p where p.reference = e.reference and p.${UNSETTLED_PAYOUT})
      order by e.received_at limit ${limit})`,
  [FOLLOW_UP_TABLE]: (limit) => `
    delete from "${FOLLOW_UP_TABLE}" where id in (
      select id from "${FOLLOW_UP_TABLE}" where state = 'done' and resolved_at < :cutoff order by resolved_at limit ${limit})`,
  [RETIRED_SESSION_TABLE]: (limit) => `
    delete from "${RETIRED_SESSION_TABLE}" where id in (
      select r.id from "${RETIRED_SESSION_TABLE}" r
      where r.retired_at < :cutoff
        and not exists (select 1 from "${FOLLOW_UP_TABLE}" f where f.transaction_id = r.transaction_id and f.${OPEN})
      order by r.retired_at limit ${limit})`,
  [PAYOUT_TABLE]: (limit) => `
    delete from "${PAYOUT_TABLE}" where id in (
      select id from "${PAYOUT_TABLE}" where not (${UNSETTLED_PAYOUT}) and updated_at < :cutoff order by updated_at limit ${limit})`,
  [SAVED_CARD_TABLE]: (limit) => `
    delete from "${SAVED_CARD_TABLE}" where id in (
      select id from "${SAVED_CARD_TABLE}" where status = 'DELETED' and updated_at < :cutoff limit ${limit})`,
}

export type PruneSummary = Record<string, number> & { more: number }

/**
 * Deletes what is older than `retentionDays` before `now` and may go, in batches; `more` is 1 when a table still
 * had a full batch left at the end of the run (the next run goes on).
 */
export async function pruneHistory(knex: Knex, input: { now: Date; retentionDays: number; batch?: number; maxBatches?: number }): Promise<PruneSummary> {
  const cutoff = new Date(input.now.getTime() - input.retentionDays * DAY_MS)
  const batch = input.batch ?? RETENTION.batch
  const maxBatches = input.maxBatches ?? RETENTION.maxBatches
  const summary: PruneSummary = { more: 0 }
  for (const [table, sql] of Object.entries(BATCHES)) {
    let deleted = 0
    for (let i = 0; i < maxBatches; i++) {
      const result = await knex.raw(sql(batch), { cutoff })
      const n = Number(result.rowCount ?? 0)
      deleted += n
      if (n < batch) break
      if (i === maxBatches - 1) summary.more = 1
    }
    summary[table] = deleted
  }
  return summary
}
