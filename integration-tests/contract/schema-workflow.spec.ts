/**
 * The schema workflow (docs/contributing.md, "Changing the schema"): the models, the migrations and the snapshot
 * `npm run db:generate` compares with agree, and no migration's down() loses data without saying so. Every
 * migration runs on a throwaway database of the test's own; no Medusa boot.
 */
import { model } from "@medusajs/framework/utils"
import { FOLLOW_UP_TABLE, PgsFollowUp } from "../../src/modules/pgs/models"
import { pluginDatabase } from "../support/plugin-database"
import { generatorEntities, migrationSources, modelDiff, proposedMigration, silentDataLoss, undocumentedDifferences } from "./schema-checks"

/** The follow-up model with a column no migration makes, as a contributor would add one. */
function withExtraColumn(entities: unknown[]) {
  const { created_at, updated_at, deleted_at, ...columns } = PgsFollowUp.schema // implicit on every model
  // Another entity name: MikroORM keeps an entity's metadata by its name for the whole process.
  const changed = model.define({ name: "PgsFollowUpChanged", tableName: FOLLOW_UP_TABLE }, { ...columns, handled_by: model.text().nullable() })
  return [...entities.filter((e) => e !== PgsFollowUp), changed]
}

describe("the pgs module's schema", () => {
  let db: Awaited<ReturnType<typeof pluginDatabase>>
  let database: string
  let entities: unknown[]

  beforeAll(async () => {
    entities = generatorEntities() // throws as the generator would for an export it cannot read
    db = await pluginDatabase("pgs_schema")
    database = (db.knex.client.config.connection as { database: string }).database
  })
  afterAll(() => db?.drop())

  it("finds every model where Medusa's generator looks, and nothing there that would crash it", () => {
    expect(entities.map((e) => (e as { name: string }).name).sort()).toEqual(
      ["PgsFollowUp", "PgsPayout", "PgsRetiredSession", "PgsSavedCard", "PgsTerminalSetting", "PgsWebhookEvent"],
    )
  })

  it("has the tables the migrations make as the models declare them, apart from the deliberate differences", async () => {
    expect(await undocumentedDifferences(await modelDiff(entities, database), db.knex)).toEqual([])
  })

  it("has a current snapshot: npm run db:generate proposes no migration", async () => {
    expect(await proposedMigration(entities, database)).toEqual([])
  })

  it("tells a model column that no migration makes, both against the database and against the snapshot", async () => {
    const changed = withExtraColumn(entities)
    // (The copy leaves the model's indexes out, so their drops are listed too.)
    expect(await undocumentedDifferences(await modelDiff(changed, database), db.knex)).toContain(`alter table "pgs_follow_up" add column "handled_by" text null;`)
    expect((await proposedMigration(changed, database)).join("\n")).toContain(`alter table "pgs_follow_up" add column "handled_by" text null;`)
  })

  it("tells a migration that changes a table no model knows of, and a check constraint that means something else", async () => {
    await db.knex.raw(`alter table "pgs_payout" add column "stray" text null`)
    await db.knex.raw(`alter table "pgs_terminal_setting" drop constraint "pgs_terminal_setting_terminal_id_length"`)
    await db.knex.raw(`alter table "pgs_terminal_setting" add constraint "pgs_terminal_setting_terminal_id_length" check (length(terminal_id) between 5 and 30)`)
    try {
      const differences = await undocumentedDifferences(await modelDiff(entities, database), db.knex)
      expect(differences).toContain(`alter table "pgs_payout" drop column "stray";`)
      expect(differences.join("\n")).toContain("pgs_terminal_setting_terminal_id_length check(length(terminal_id) between 5 and 20)")
    } finally {
      await db.knex.raw(`alter table "pgs_payout" drop column "stray"`)
      await db.knex.raw(`alter table "pgs_terminal_setting" drop constraint "pgs_terminal_setting_terminal_id_length"`)
      await db.knex.raw(`alter table "pgs_terminal_setting" add constraint "pgs_terminal_setting_terminal_id_length" check (length(terminal_id) between 5 and 20)`)
    }
  })
})

describe("rolling a migration back", () => {
  it("says in every down() that drops a table or a column, or deletes rows, that data is lost", () => {
    expect(silentDataLoss(migrationSources())).toEqual([])
  })

  it("names a down() that drops a table without saying so, and accepts one that says so", () => {
    const silent = `override async up() {}\n  override async down(): Promise<void> {\n    this.addSql(\`drop table if exists "pgs_x" cascade;\`);\n  }\n`
    const said = silent.replace("{\n    this", "{\n    // Loses data: every row of pgs_x.\n    this")
    const upOnly = `override async up() { this.addSql(\`drop table if exists "pgs_old";\`) }\n  override async down() {}\n`
    expect(silentDataLoss({ "Silent.ts": silent, "Said.ts": said, "UpOnly.ts": upOnly })).toEqual(["Silent.ts"])
  })
})
