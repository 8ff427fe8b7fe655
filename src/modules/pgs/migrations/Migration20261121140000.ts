import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Terminal settings: the hosted payment page's options (issue 5). */
export class Migration20261121140000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_terminal_setting" add column if not exists "hosted_page_options" jsonb null;`);
  }

  override async down(): Promise<void> {
    // Loses data: every terminal's hosted payment page options.
    this.addSql(`alter table if exists "pgs_terminal_setting" drop column if exists "hosted_page_options";`);
  }

}
