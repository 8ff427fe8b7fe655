/**
 * Retention (src/modules/pgs/retention.ts): history older than retentionDays goes, in bounded batches; what open
 * work still needs stays whatever its age. On a database of the test's own with the plugin's migrations.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { openFollowUp } from "../../src/modules/pgs/follow-ups"
import { recordRetiredSession } from "../../src/modules/pgs/retired-sessions"
import { insertDeliveries } from "../../src/modules/pgs/webhook-queue"
import { pruneHistory } from "../../src/modules/pgs/retention"
import { pluginDatabase } from "../support/plugin-database"

const DAY = 86_400_000
const now = new Date()
const daysAgo = (d: number) => new Date(now.getTime() - d * DAY)

let db: Awaited<ReturnType<typeof pluginDatabase>>
let knex: Knex

beforeAll(async () => {
  db = await pluginDatabase("pgs_retention")
  knex = db.knex
})
afterAll(async () => {
  await db?.drop()
})

async function event(tag: string, input: { age: number; processed?: boolean; outcome?: string; subject_id?: string; reference?: string }) {
  const [recorded] = await insertDeliveries(knex, [
    { delivery_key: `key-${tag}`, event: "payment-webhook:transaction:captured", subject_id: input.subject_id ?? `trx_${tag}`, reference: input.reference ?? `ref_${tag}`, payload: { id: `trx_${tag}` }, received_at: daysAgo(input.age) },
  ])
  const processed = input.processed ?? true
  await knex("pgs_webhook_event").where({ id: recorded!.id }).update({ processed_at: processed ? daysAgo(input.age) : null, outcome: input.outcome ?? (processed ? "applied:captured" : null) })
  return recorded!.id
}

async function payout(tag: string, status: string, age: number) {
  await knex("pgs_payout").insert({
    id: `pgspo_${tag}`, reference: `payout-${tag}`, terminal_id: "SBX-PAYOUT-01", method: "bank_account", transaction_type: "PAYOUT", amount: 25,
    raw_amount: JSON.stringify({ value: "25", precision: 20 }), currency_code: "eur", description: "Seller payout", status, beneficiary_fingerprint: "f",
    transaction_id: `trx_${tag}`, created_at: daysAgo(age), updated_at: daysAgo(age),
  })
}

const ids = async (table: string) => (await knex(table).select("id").orderBy("id")).map((r: { id: string }) => r.id)

describe("retention", () => {
  it("deletes settled history older than the retention age and keeps what open work and unsettled payouts need", async () => {
    const gone = [await event("old", { age: 200 })]
    const kept = [
      await event("young", { age: 100 }),
      await event("unprocessed", { age: 200, processed: false }),
      await event("flagged", { age: 200, outcome: "attention:late_money" }),
      await event("watched", { age: 200, subject_id: "trx_watched" }),
      await event("payout", { age: 200, subject_id: "trx_pending_payout" }),
    ]
    const done = (await openFollowUp(knex, { key: "check:trx_done", kind: "check", state: "done", transaction_id: "trx_done" })).row
    await knex("pgs_follow_up").where({ id: done.id }).update({ resolved_at: daysAgo(200), updated_at: daysAgo(200) })
    const watching = (await openFollowUp(knex, { key: "check:trx_watched", kind: "check", transaction_id: "trx_watched" })).row
    await knex("pgs_follow_up").where({ id: watching.id }).update({ created_at: daysAgo(200), updated_at: daysAgo(200) })
    const person = (await openFollowUp(knex, { key: "stuck:trx_p", kind: "stuck", state: "needs_person", transaction_id: "trx_p" })).row
    await knex("pgs_follow_up").where({ id: person.id }).update({ updated_at: daysAgo(400) })
    await payout("approved", "APPROVED", 200)
    await payout("pending_payout", "PENDING", 200)
    await payout("recent", "APPROVED", 10)
    for (const [session, transaction] of [["old_session", null], ["watched_session", "trx_watched"]] as const) {
      await recordRetiredSession(knex, { session_id: session, reference: `ref_${session}`, terminal_id: null, transaction_id: transaction, amount_minor: 100, currency_code: "eur", order_id: null })
    }
    await knex("pgs_retired_session").update({ retired_at: daysAgo(200) })

    const summary = await pruneHistory(knex, { now, retentionDays: 180 })

    expect(summary).toEqual({ more: 0, pgs_webhook_event: 1, pgs_follow_up: 1, pgs_retired_session: 1, pgs_payout: 1, pgs_saved_card: 0 })
    expect(await ids("pgs_webhook_event")).toEqual([...kept].sort())
    expect(await ids("pgs_webhook_event")).not.toContain(gone[0])
    expect(await ids("pgs_follow_up")).toEqual([watching.id, person.id].sort())
    expect(await ids("pgs_payout")).toEqual(["pgspo_pending_payout", "pgspo_recent"])
    expect((await knex("pgs_retired_session").select("session_id")).map((r: { session_id: string }) => r.session_id)).toEqual(["watched_session"])
  })

  it("deletes at most batch × maxBatches rows of a table per run, and says there is more", async () => {
    for (let i = 0; i < 7; i++) await event(`batch${i}`, { age: 300 })
    const first = await pruneHistory(knex, { now, retentionDays: 180, batch: 2, maxBatches: 2 })
    expect(first).toMatchObject({ pgs_webhook_event: 4, more: 1 })
    const second = await pruneHistory(knex, { now, retentionDays: 180, batch: 2, maxBatches: 2 })
    expect(second).toMatchObject({ pgs_webhook_event: 3, more: 0 })
  })
})
