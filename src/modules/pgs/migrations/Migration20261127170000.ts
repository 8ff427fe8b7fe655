import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Follow-ups: a kind for a terminal the gateway refuses, on which every payment fails. */
export class Migration20261127170000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture', 'webhooks_refused', 'void_not_made', 'refund_not_made', 'refund_failed', 'terminal_refused'));`);
  }

  override async down(): Promise<void> {
    // Loses data: deletes the "Terminal refused" follow-ups, so the narrower kind check can be added.
    this.addSql(`delete from "pgs_follow_up" where "kind" = 'terminal_refused';`);
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture', 'webhooks_refused', 'void_not_made', 'refund_not_made', 'refund_failed'));`);
  }

}
