import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Issue 17: follow-ups (reconciliation, late refunds, given-up orders) and the payment sessions Medusa deleted. */
export class Migration20261124040000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "pgs_follow_up" ("id" text not null, "key" text not null, "kind" text check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck')) not null, "state" text check ("state" in ('watching', 'done', 'needs_person')) not null default 'watching', "transaction_id" text null, "reference" text null, "order_id" text null, "amount_minor" numeric null, "raw_amount_minor" jsonb null, "currency_code" text null, "note" text null, "checks" integer not null default 0, "next_check_at" timestamptz null, "last_status" text null, "resolved_at" timestamptz null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "pgs_follow_up_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_follow_up_deleted_at" ON "pgs_follow_up" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_pgs_follow_up_key_unique" ON "pgs_follow_up" ("key");`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_follow_up_open" ON "pgs_follow_up" ("next_check_at") WHERE state = 'watching' AND deleted_at IS NULL;`);

    this.addSql(`create table if not exists "pgs_retired_session" ("id" text not null, "session_id" text not null, "reference" text not null, "terminal_id" text null, "transaction_id" text null, "amount_minor" numeric not null, "raw_amount_minor" jsonb not null, "currency_code" text not null, "retired_at" timestamptz not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "pgs_retired_session_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_retired_session_deleted_at" ON "pgs_retired_session" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_pgs_retired_session_session_id_unique" ON "pgs_retired_session" ("session_id");`);
  }

  override async down(): Promise<void> {
    // Loses data: drops every follow-up (Needs attention, open checks, late refunds) and every retired session,
    // so money the gateway takes later for a deleted session is no longer known as this store's.
    this.addSql(`drop table if exists "pgs_follow_up" cascade;`);
    this.addSql(`drop table if exists "pgs_retired_session" cascade;`);
  }

}
