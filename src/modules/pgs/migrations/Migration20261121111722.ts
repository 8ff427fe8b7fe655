import { Migration } from "@medusajs/framework/mikro-orm/migrations";

export class Migration20261121111722 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_webhook_event" drop constraint if exists "pgs_webhook_event_delivery_key_unique";`);
    this.addSql(`alter table if exists "pgs_saved_card" drop constraint if exists "pgs_saved_card_payment_method_id_unique";`);
    this.addSql(`create table if not exists "pgs_saved_card" ("id" text not null, "customer_id" text not null, "gateway_customer_id" text not null, "payment_method_id" text not null, "brand" text null, "masked" text null, "last_4" text null, "exp_month" integer null, "exp_year" integer null, "status" text check ("status" in ('ACTIVE', 'DELETED')) not null default 'ACTIVE', "transaction_id" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "pgs_saved_card_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_saved_card_deleted_at" ON "pgs_saved_card" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_pgs_saved_card_payment_method_id_unique" ON "pgs_saved_card" ("payment_method_id");`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_saved_card_customer_id" ON "pgs_saved_card" ("customer_id") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "pgs_terminal_setting" ("id" text not null, "terminal_id" text not null, "label" text null, "currency_codes" jsonb not null default '[]', "region_ids" jsonb not null default '[]', "transaction_type" text check ("transaction_type" in ('AUTHORIZE', 'PURCHASE')) not null default 'AUTHORIZE', "integration_type" text check ("integration_type" in ('EMBEDDED_FIELDS', 'HOSTED_PAYMENT_PAGE', 'DIRECT_API')) not null default 'EMBEDDED_FIELDS', "notification_url" text null, "instalments" boolean not null default false, "locale" text null, "css_variables" jsonb null, "enabled_methods" jsonb null, "is_default" boolean not null default false, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "pgs_terminal_setting_pkey" primary key ("id"), constraint pgs_terminal_setting_terminal_id_length check (length(terminal_id) between 5 and 20));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_terminal_setting_deleted_at" ON "pgs_terminal_setting" ("deleted_at") WHERE deleted_at IS NULL;`);

    this.addSql(`create table if not exists "pgs_webhook_event" ("id" text not null, "delivery_key" text not null, "event" text not null, "subject_id" text null, "reference" text null, "payload" jsonb not null, "received_at" timestamptz not null, "processed_at" timestamptz null, "outcome" text null, "error" text null, "created_at" timestamptz not null default now(), "updated_at" timestamptz not null default now(), "deleted_at" timestamptz null, constraint "pgs_webhook_event_pkey" primary key ("id"));`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_webhook_event_deleted_at" ON "pgs_webhook_event" ("deleted_at") WHERE deleted_at IS NULL;`);
    this.addSql(`CREATE UNIQUE INDEX IF NOT EXISTS "IDX_pgs_webhook_event_delivery_key_unique" ON "pgs_webhook_event" ("delivery_key");`);
    this.addSql(`CREATE INDEX IF NOT EXISTS "IDX_pgs_webhook_event_subject_id" ON "pgs_webhook_event" ("subject_id") WHERE deleted_at IS NULL;`);
  }

  override async down(): Promise<void> {
    // Loses data: drops the saved cards, the terminal settings and the webhook log, every row of them.
    this.addSql(`drop table if exists "pgs_saved_card" cascade;`);

    this.addSql(`drop table if exists "pgs_terminal_setting" cascade;`);

    this.addSql(`drop table if exists "pgs_webhook_event" cascade;`);
  }

}
