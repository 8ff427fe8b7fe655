import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Payouts (issue 5): one row per reference, masked account or card only. */
export class Migration20261121143000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_payout" drop constraint if exists "pgs_payout_reference_unique";`);
    this.addSql(`create table if not exists "pgs_payout" ("id" text not null, "reference" text not null, "terminal_id" text not null, "method" text check ("method" in ('bank_account', 'card')) not null, "transaction_type" text check ("transaction_type" in ('PAYOUT', 'OCT')) not null, "amount" numeric not null, "currency_code" text not null, "description" text not null, "status" text check ("status" in ('CREATING', 'PENDING', 'FAILED', 'APPROVED', 'DECLINED', 'CANCELED', 'INVALID', 'SESSION_EXPIRED')) not null default 'CREATING', "masked" text null, "beneficiary_name" text null, "card_brand" text null, "beneficiary_fingerprint" text not null, "transaction_id" text null, "processing_code" text null, "response_message" text null, "errors" jsonb null, "note" text null, "metadata" jsonb null, "created_by" text null, "raw_amount" jsonb not null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "pgs_payout_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_payout_deleted_at" ON "pgs_payout" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_pgs_payout_reference_unique" ON "pgs_payout" ("reference");`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_payout_transaction_id" ON "pgs_payout" ("transaction_id") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_payout_status" ON "pgs_payout" ("status") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    // Loses data: drops every payout record (the gateway keeps its own).
    this.addSql(`drop table if exists "pgs_payout" cascade;`);
  }

}
