/**
 * The plugin's reads stay bounded as history grows: on tables filled as a store fills them over two years (scaled
 * down: 300,000 webhook events, 100,000 each of follow-ups, retired sessions and payouts; fresh statistics), each
 * query the plugin sends — captured from the real functions, not written again here — is planned by PostgreSQL
 * (EXPLAIN (FORMAT JSON), default planner settings) on an index, never a sequential scan of a grown table, and the
 * list pages go on by keyset (a row comparison in the index condition) with no sort of the whole table.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { eventsFor, authenticationStatusOf, openAttentionFor, eventsNeedingAPerson, countEventsNeedingAPerson } from "../../src/modules/pgs/admin-queries"
import { followUpPage, countNeedingAPerson, dueChecks, claimDueCheck, existingKeys, followUpByKey } from "../../src/modules/pgs/follow-ups"
import { findRetiredSession } from "../../src/modules/pgs/retired-sessions"
import { dueWebhookEventIds, eventToRun, eventsToRunWith, writeEventOutcome } from "../../src/modules/pgs/webhook-queue"
import { retiredWithTransaction } from "../../src/workflows/reconcile/watch"
import { payoutPage } from "../../src/api/admin/pgs/payouts/page"
import { pruneHistory } from "../../src/modules/pgs/retention"
import { fillHistory } from "../support/history"
import { pluginDatabase } from "../support/plugin-database"

jest.setTimeout(600_000)

const GROWN = ["pgs_webhook_event", "pgs_follow_up", "pgs_retired_session", "pgs_payout"]

type PlanNode = { "Node Type": string; "Relation Name"?: string; "Index Name"?: string; "Index Cond"?: string; "Plan Rows": number; Plans?: PlanNode[] }
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)]

let db: Awaited<ReturnType<typeof pluginDatabase>>
let knex: Knex

/** The statements `run` sends, each with its plan. */
async function plansOf(run: () => Promise<unknown>): Promise<Array<{ sql: string; nodes: PlanNode[] }>> {
  const sent: Array<{ sql: string; bindings: unknown[] }> = []
  const listen = (q: { sql: string; bindings?: unknown[] }) => sent.push({ sql: q.sql, bindings: q.bindings ?? [] })
  // In a transaction rolled back afterwards: claims and deletes leave the tables as they were.
  await knex
    .transaction(async (trx) => {
      trx.on("query", listen)
      const original = knex
      knex = trx as unknown as Knex
      try {
        await run()
      } finally {
        knex = original
      }
      throw new Error("rollback")
    })
    .catch((e) => {
      if ((e as Error).message !== "rollback") throw e
    })
  const out = []
  for (const q of sent.filter((q) => !/^(begin|commit|rollback|savepoint|release)/i.test(q.sql.trim()))) {
    const { rows } = await knex.raw(`explain (format json) ${q.sql.replace(/\$(\d+)/g, "?")}`, q.bindings as any[])
    out.push({ sql: q.sql, nodes: nodes(rows[0]["QUERY PLAN"][0].Plan) })
  }
  return out
}

const seqScansOfGrown = (plan: { nodes: PlanNode[] }) => plan.nodes.filter((n) => n["Node Type"] === "Seq Scan" && GROWN.includes(n["Relation Name"] ?? ""))
/** Sorts of more than a page's worth of rows (sorting the few open items is fine; sorting the history is not). */
const sorts = (plan: { nodes: PlanNode[] }) =>
  plan.nodes.filter((n) => (n["Node Type"] === "Sort" || n["Node Type"] === "Incremental Sort") && Math.max(n["Plan Rows"], ...(n.Plans ?? []).map((c) => c["Plan Rows"])) > 1000)

function expectIndexed(plans: Array<{ sql: string; nodes: PlanNode[] }>) {
  expect(plans.length).toBeGreaterThan(0)
  for (const plan of plans) expect({ sql: plan.sql, seqScans: seqScansOfGrown(plan).map((n) => n["Relation Name"]) }).toEqual({ sql: plan.sql, seqScans: [] })
}

function expectKeysetPage(plans: Array<{ sql: string; nodes: PlanNode[] }>, index: string) {
  expectIndexed(plans)
  const [page] = plans
  expect(sorts(page!)).toEqual([])
  const scan = page!.nodes.find((n) => n["Index Name"] === index)
  expect(scan).toBeDefined()
  // Keyset: the scan starts after the cursor's row (a row comparison), it does not skip rows.
  expect(scan!["Index Cond"]).toMatch(/ROW\(.*\) < ROW\(/)
}

beforeAll(async () => {
  db = await pluginDatabase("pgs_plans")
  knex = db.knex
  await fillHistory(knex, { events: 300_000, followUps: 100_000, retiredSessions: 100_000, payouts: 100_000, days: 730 })
})

afterAll(async () => {
  await db?.drop()
})

describe("query plans on a grown store", () => {
  const middle = { at: "2025-06-01 12:00:00+00", id: "pgsfu_hist000050000" }

  it("reads an order's webhook timeline and its open items through indexes (ids, references, ids inside the payload)", async () => {
    const input = { transaction_ids: ["trx_hist_1234", "trx_hist_p_77"], references: ["ref_hist_1234"] }
    const timeline = await plansOf(() => eventsFor(knex, input))
    expectIndexed(timeline)
    // PostgreSQL knows the ids inside the payload are selective (statistics of the expression indexes): it plans a
    // few rows, not a parallel read of thousands (a partial expression index has no statistics and planned 20,000).
    expect(timeline[0]!.nodes[0]!["Plan Rows"]).toBeLessThan(100)
    expect(timeline[0]!.nodes.filter((n) => /Gather/.test(n["Node Type"]))).toEqual([])
    expectIndexed(await plansOf(() => authenticationStatusOf(knex, "trx_hist_1234")))
    expectIndexed(await plansOf(() => openAttentionFor(knex, { order_id: "order_hist_9", ...input })))
  })

  it("processes an event with reads and a write on indexes: its row, its reference's waiting and deferred events, its outcome", async () => {
    const event = { id: "pgswh_hist000004936", reference: "ref_hist_1234", received_at: new Date("2025-06-01T12:00:00Z") }
    expectIndexed(await plansOf(() => eventToRun(knex, event.id)))
    const underLock = await plansOf(() => eventsToRunWith(knex, event))
    expectIndexed(underLock)
    expect(underLock[0]!.nodes.some((n) => n["Index Name"] === "IDX_pgs_webhook_event_reference")).toBe(true)
    expectIndexed(await plansOf(() => writeEventOutcome(knex, event.id, { processed_at: new Date(), outcome: "applied:test", error: null, next_attempt_at: null })))
  })

  it("pages Needs attention by keyset on its own indexes, with cheap counts of the open items", async () => {
    expectKeysetPage(await plansOf(() => followUpPage(knex, "record", middle, 21)), "IDX_pgs_follow_up_record")
    // The open items are few (a person acts on them): any index over them will do, and sorting them is cheap.
    for (const plans of [await plansOf(() => followUpPage(knex, "open", middle, 21)), await plansOf(() => eventsNeedingAPerson(knex, { at: middle.at, id: "pgswh_hist000100000" }, 21))]) {
      expectIndexed(plans)
      expect(sorts(plans[0]!)).toEqual([])
    }
    // The first page: no cursor, still no sort (the index is read newest first).
    const first = await plansOf(() => followUpPage(knex, "record", null, 21))
    expectIndexed(first)
    expect(sorts(first[0]!)).toEqual([])
    expectIndexed(await plansOf(() => countNeedingAPerson(knex)))
    expectIndexed(await plansOf(() => countEventsNeedingAPerson(knex)))
  })

  it("pages payouts by keyset, with or without a status filter", async () => {
    const cursor = { s: 0, at: "2025-06-01 12:00:00+00", id: "pgspo_hist000050000" }
    expectKeysetPage(await plansOf(() => payoutPage(knex, { limit: 20, cursor })), "IDX_pgs_payout_created_at_id")
    expectKeysetPage(await plansOf(() => payoutPage(knex, { limit: 20, cursor, status: "DECLINED" })), "IDX_pgs_payout_status_created_at_id")
    // The first page: read newest first from the index, no sort.
    const first = await plansOf(() => payoutPage(knex, { limit: 20 }))
    expectIndexed(first)
    expect(sorts(first[0]!)).toEqual([])
    expect(first[0]!.nodes.some((n) => n["Index Name"] === "IDX_pgs_payout_created_at_id")).toBe(true)
  })

  it("finds reconciliation's due checks and failed refunds, claims one and watches retired sessions on indexes", async () => {
    const now = new Date()
    expectIndexed(await plansOf(() => dueChecks(knex, now, 25)))
    expectIndexed(await plansOf(() => dueChecks(knex, now, 100, "refund_failed")))
    expectIndexed(await plansOf(() => claimDueCheck(knex, "pgsfu_hist000000001", now, 60_000)))
    expectIndexed(await plansOf(() => existingKeys(knex, ["check:trx_hist_fu_1", "check:trx_a"])))
    expectIndexed(await plansOf(() => followUpByKey(knex, "stuck:trx_hist_fu_1")))
    expectIndexed(await plansOf(() => retiredWithTransaction(knex, now)))
    expectIndexed(await plansOf(() => findRetiredSession(knex, "payses_hist_5")))
    expectIndexed(await plansOf(() => dueWebhookEventIds(knex, now)))
  })

  it("prunes history in batches that walk an index, oldest first", async () => {
    const plans = await plansOf(() => pruneHistory(knex, { now: new Date(), retentionDays: 180, batch: 100, maxBatches: 1 }))
    expect(plans).toHaveLength(5)
    expectIndexed(plans)
  })
})
