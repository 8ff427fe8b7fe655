import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * Issue 26: captures on fulfillment are follow-ups (one per fulfillment, listed for a person when one fails), and a
 * terminal may switch capture on fulfillment on.
 */
export class Migration20261125040000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture'));`);
    this.addSql(`alter table if exists "pgs_terminal_setting" add column if not exists "capture_on_fulfillment" boolean not null default false;`);
  }

  override async down(): Promise<void> {
    // Loses data: each terminal's capture-on-fulfillment switch. The narrower kind check fails while a
    // fulfillment_capture follow-up exists: settle or delete those first.
    this.addSql(`alter table if exists "pgs_terminal_setting" drop column if exists "capture_on_fulfillment";`);
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck'));`);
  }

}
