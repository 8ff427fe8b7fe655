import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Follow-ups: a kind for money a canceled order's payment kept because Medusa's refund at the cancel did not go through. */
export class Migration20261127060000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture', 'webhooks_refused', 'void_not_made', 'refund_not_made'));`);
  }

  override async down(): Promise<void> {
    // Loses data: deletes the "Refund not made" follow-ups, so the narrower kind check can be added.
    this.addSql(`delete from "pgs_follow_up" where "kind" = 'refund_not_made';`);
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture', 'webhooks_refused', 'void_not_made'));`);
  }

}
