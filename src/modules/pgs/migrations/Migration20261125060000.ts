import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Terminal settings: the admin's shopper-facing name of each method, per locale (issue 26). */
export class Migration20261125060000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_terminal_setting" add column if not exists "method_names" jsonb null;`);
  }

  override async down(): Promise<void> {
    // Loses data: the shopper-facing method names set per terminal.
    this.addSql(`alter table if exists "pgs_terminal_setting" drop column if exists "method_names";`);
  }

}
