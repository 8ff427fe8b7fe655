import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Follow-ups: a kind for webhook deliveries refused for their signature (a wrong PGS_WEBHOOK_PUBLIC_KEY). */
export class Migration20261125050000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture', 'webhooks_refused'));`);
  }

  override async down(): Promise<void> {
    // Loses data: deletes the "Webhooks refused" follow-up, so the narrower kind check can be added.
    this.addSql(`delete from "pgs_follow_up" where "kind" = 'webhooks_refused';`);
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture'));`);
  }

}
