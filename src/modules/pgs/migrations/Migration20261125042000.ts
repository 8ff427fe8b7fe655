import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Issue 24: a saved card's consent to later charges by the shop (merchant-initiated), recorded with the card. */
export class Migration20261125042000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_saved_card" add column if not exists "merchant_consent_at" timestamptz null;`);
  }

  override async down(): Promise<void> {
    // Loses data: every saved card's consent to charges by the shop (when the shopper agreed).
    this.addSql(`alter table if exists "pgs_saved_card" drop column if exists "merchant_consent_at";`);
  }

}
