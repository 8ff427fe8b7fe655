import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The card-testing guard (payments/card-testing): its counters (rate-limiter-flexible's own table layout, shared by
 * every process of a store without Redis), which client address asked for a payment collection's sessions (a decline
 * the gateway reports later counts against it), what the guard saw (for the admin's item), the store's switch for an
 * attack, and the follow-up kind "card_testing". Plain tables without models: only the guard reads them, in knex.
 */
export class Migration20261129050000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`create table if not exists "pgs_card_testing_counter" ("key" varchar(255) primary key, "points" integer not null default 0, "expire" bigint);`);
    this.addSql(`create table if not exists "pgs_card_testing_client" ("payment_collection_id" text primary key, "client_address" text null, "updated_at" timestamptz not null default now());`);
    this.addSql(`create table if not exists "pgs_card_testing_event" ("id" bigserial primary key, "at" timestamptz not null default now(), "kind" text not null, "client_address" text null, "cart_id" text null, "payment_collection_id" text null, "email" text null);`);
    this.addSql(`create index if not exists "IDX_pgs_card_testing_event_at" on "pgs_card_testing_event" ("at");`);
    this.addSql(`create table if not exists "pgs_card_testing_lockdown" ("id" text primary key, "mode" text not null, "until" timestamptz not null, "set_by" text null, "set_at" timestamptz not null default now());`);
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture', 'webhooks_refused', 'void_not_made', 'refund_not_made', 'refund_failed', 'terminal_refused', 'card_testing'));`);
  }

  override async down(): Promise<void> {
    // Loses data: drops the card-testing guard's counters and records, and deletes its follow-up.
    this.addSql(`delete from "pgs_follow_up" where "kind" = 'card_testing';`);
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture', 'webhooks_refused', 'void_not_made', 'refund_not_made', 'refund_failed', 'terminal_refused'));`);
    for (const table of ["pgs_card_testing_counter", "pgs_card_testing_client", "pgs_card_testing_event", "pgs_card_testing_lockdown"]) this.addSql(`drop table if exists "${table}";`);
  }

}
