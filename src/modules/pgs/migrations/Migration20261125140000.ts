import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** A saved card's consent to later charges by the shop also keeps what the shopper was asked (wording, language, words). */
export class Migration20261125140000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_saved_card" add column if not exists "merchant_consent" jsonb null;`);
  }

  override async down(): Promise<void> {
    // Loses data: the words each saved card's consent was asked in.
    this.addSql(`alter table if exists "pgs_saved_card" drop column if exists "merchant_consent";`);
  }

}
