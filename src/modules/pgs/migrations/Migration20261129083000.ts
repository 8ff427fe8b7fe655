import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The card-testing guard's events name the gateway event a decline came from, once: an event processed again (the
 * retry job, the admin's "Process again") does not count its decline a second time. Additive: a column and an index.
 */
export class Migration20261129083000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_card_testing_event" add column if not exists "webhook_event_id" text null;`);
    this.addSql(`create unique index if not exists "IDX_pgs_card_testing_event_webhook_event_id" on "pgs_card_testing_event" ("webhook_event_id") where "webhook_event_id" is not null;`);
  }

  override async down(): Promise<void> {
    // Loses data: which gateway event each decline came from (an event processed again after this counts again).
    this.addSql(`drop index if exists "IDX_pgs_card_testing_event_webhook_event_id";`);
    this.addSql(`alter table if exists "pgs_card_testing_event" drop column if exists "webhook_event_id";`);
  }

}
