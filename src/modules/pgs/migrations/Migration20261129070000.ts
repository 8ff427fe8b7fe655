import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/**
 * The follow-up kind "amount_drift": the gateway was sent more for a payment's captures or refunds than Medusa's
 * records of them round to (payments/amount-drift.ts). Additive: a check widened.
 */
export class Migration20261129070000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture', 'webhooks_refused', 'void_not_made', 'refund_not_made', 'refund_failed', 'terminal_refused', 'card_testing', 'held_after_cancel', 'amount_drift'));`);
  }

  override async down(): Promise<void> {
    // Loses data: deletes the follow-ups of the kind it removes.
    this.addSql(`delete from "pgs_follow_up" where "kind" = 'amount_drift';`);
    this.addSql(`alter table if exists "pgs_follow_up" drop constraint if exists "pgs_follow_up_kind_check";`);
    this.addSql(`alter table if exists "pgs_follow_up" add constraint "pgs_follow_up_kind_check" check ("kind" in ('check', 'reconciled', 'late_refund', 'gave_up', 'unknown_management', 'stuck', 'fulfillment_capture', 'webhooks_refused', 'void_not_made', 'refund_not_made', 'refund_failed', 'terminal_refused', 'card_testing', 'held_after_cancel'));`);
  }

}
