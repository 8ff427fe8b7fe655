import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Webhook event log: failed processing is retried by a scheduled job (issue 4), with attempts and backoff. */
export class Migration20261121150000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_webhook_event" add column if not exists "attempts" integer not null default 0;`);
    this.addSql(`alter table if exists "pgs_webhook_event" add column if not exists "next_attempt_at" timestamptz null;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_webhook_event_unfinished" ON "pgs_webhook_event" ("received_at") WHERE processed_at IS NULL AND deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    // Loses data: each webhook event's failed attempts and its next retry time.
    this.addSql(`drop index if exists "IDX_pgs_webhook_event_unfinished";`);
    this.addSql(`alter table if exists "pgs_webhook_event" drop column if exists "next_attempt_at";`);
    this.addSql(`alter table if exists "pgs_webhook_event" drop column if exists "attempts";`);
  }

}
