import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Issue 25: indexes that keep the plugin's reads as fast on a two-year-old store as on a new one (the history
 * bench, bench/history.bench.ts; the plans are checked by integration-tests/history/query-plans.spec.ts), and the
 * ones the retention job's bounded deletes walk. The predicates match the queries' own words exactly.
 */
export class Migration20261125041000 extends Migration {

  override async up(): Promise<void> {
    // Webhook events: the order's gateway view finds events by reference and by the ids inside the payload. Plain,
    // not partial: ANALYZE keeps statistics for the expression of a plain index only; without them PostgreSQL
    // guessed 10,000 rows per id and started parallel workers for a 2-row read (3.5× slower, measured).
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_webhook_event_reference" ON "pgs_webhook_event" ("reference");`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_webhook_event_parent_id" ON "pgs_webhook_event" ((payload->>'parent_id'));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_webhook_event_payload_transaction_id" ON "pgs_webhook_event" ((payload->>'transaction_id'));`);
    // "Needs attention": the few events a person must look at, newest first.
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_webhook_event_needs_person" ON "pgs_webhook_event" ("received_at", "id") WHERE outcome LIKE 'attention:%' OR (outcome = 'error' AND processed_at IS NULL);`);
    // Retention walks the oldest events first.
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_webhook_event_received_at" ON "pgs_webhook_event" ("received_at");`);

    // Follow-ups: the attention list's two keyset segments (open items, then the record), and retention's walk.
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_follow_up_needs_person" ON "pgs_follow_up" ("updated_at", "id") WHERE state = 'needs_person' AND deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_follow_up_record" ON "pgs_follow_up" ("updated_at", "id") WHERE state <> 'needs_person' AND kind <> 'check' AND deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_follow_up_transaction_id" ON "pgs_follow_up" ("transaction_id") WHERE state <> 'done';`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_follow_up_reference" ON "pgs_follow_up" ("reference") WHERE state <> 'done';`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_follow_up_resolved_at" ON "pgs_follow_up" ("resolved_at") WHERE state = 'done';`);

    // Retired sessions: reconciliation watches the last week's; retention walks the oldest.
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_retired_session_retired_at" ON "pgs_retired_session" ("retired_at");`);

    // Payouts: the list's keyset pages, newest first, with and without a status filter; reconciliation's pending scan.
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_payout_created_at_id" ON "pgs_payout" ("created_at", "id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_payout_status_created_at_id" ON "pgs_payout" ("status", "created_at", "id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_payout_updated_at" ON "pgs_payout" ("updated_at");`);
    // Retention keeps what an unsettled payout is about: the few unsettled ones, by transaction and by reference.
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_payout_unsettled_transaction_id" ON "pgs_payout" ("transaction_id") WHERE status IN ('CREATING', 'PENDING');`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_payout_unsettled_reference" ON "pgs_payout" ("reference") WHERE status IN ('CREATING', 'PENDING');`);
  }

  override async down(): Promise<void> {
    for (const name of [
      "IDX_pgs_webhook_event_reference", "IDX_pgs_webhook_event_parent_id", "IDX_pgs_webhook_event_payload_transaction_id",
      "IDX_pgs_webhook_event_needs_person", "IDX_pgs_webhook_event_received_at", "IDX_pgs_follow_up_needs_person",
      "IDX_pgs_follow_up_record", "IDX_pgs_follow_up_transaction_id", "IDX_pgs_follow_up_reference", "IDX_pgs_follow_up_resolved_at",
      "IDX_pgs_retired_session_retired_at", "IDX_pgs_payout_created_at_id", "IDX_pgs_payout_status_created_at_id",
      "IDX_pgs_payout_updated_at", "IDX_pgs_payout_unsettled_transaction_id", "IDX_pgs_payout_unsettled_reference",
    ]) this.addSql(`drop index if exists "${name}";`);
  }

}
