import { Migration } from "@medusajs/framework/mikro-orm/migrations";

/** Retired sessions: the order whose payment collection held the session, so late money names its order. */
export class Migration20261127230000 extends Migration {

  override async up(): Promise<void> {
    this.addSql(`alter table if exists "pgs_retired_session" add column if not exists "order_id" text null;`);
  }

  override async down(): Promise<void> {
    // Loses data: the order each retired session belonged to.
    this.addSql(`alter table if exists "pgs_retired_session" drop column if exists "order_id";`);
  }

}
