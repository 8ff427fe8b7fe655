/**
 * One check: re-read a transaction from the gateway's status endpoint and, when it is final, apply it through the
 * webhook path (gateway-read-event.ts). One runner per transaction at a time, across processes: a runner claims the
 * check in the database first (claimDueCheck), so a second one finds it not due. What changed goes to the log and, for
 * the shop admin, to the follow-up's sentence.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import type { PgsClient, Transaction } from "../../gateway"
import { fromMinorUnits } from "../../gateway"
import { claimDueCheck, followUpByKey, openFollowUp, updateFollowUp, type FollowUpRow } from "../../modules/pgs/follow-ups"
import { fromStorableText } from "../../modules/pgs/storable"
import { WEBHOOK_EVENT_TABLE } from "../../modules/pgs/models"
import { runRecordedEvent } from "../process-pgs-event"
import { isApplied } from "../pgs-events/context"
import { recordGatewayRead } from "./gateway-read-event"
import { nextCheckAt, RECONCILE } from "./policy"

/** `onReadError`: told of a failed read (the run's pace slows down on 429/5xx). */
export type CheckDeps = { container: MedusaContainer; knex: Knex; client: PgsClient; logger: Logger; onReadError?(error: unknown): void }
export type CheckResult = "applied" | "settled" | "still_pending" | "unreadable" | "skipped"

export async function checkTransaction(deps: CheckDeps, followUpId: string, now: Date): Promise<CheckResult> {
  const row = await claimDueCheck(deps.knex, followUpId, now, RECONCILE.leaseMs)
  if (!row?.transaction_id) return "skipped"
  let tx: Transaction | null
  try {
    tx = (await deps.client.status.transaction(row.transaction_id))?.transaction ?? null
  } catch (error) {
    deps.onReadError?.(error)
    deps.logger.warn(`PGS reconciliation: transaction ${row.transaction_id} could not be read (${(error as Error).message}); trying again later`)
    await later(deps, row, now, null)
    return "unreadable"
  }
  const recorded = tx ? await recordGatewayRead(deps.knex, tx) : null
  if (!tx || !recorded) {
    await later(deps, row, now, tx?.status ?? "NOT_FOUND")
    return "still_pending"
  }
  await runRecordedEvent(deps.container, recorded.id)
  const outcome = await eventOutcome(deps.knex, recorded.id)
  if (outcome === null || outcome === "error") {
    // Processing failed: the retry job runs the event again; this check looks again after its backoff too.
    await later(deps, row, now, tx.status)
    return "unreadable"
  }
  const money = `${fromMinorUnits(tx.amount, tx.currency)} ${tx.currency.toUpperCase()}`
  await closeStuck(deps, row, now, tx.status)
  if (isApplied(outcome)) {
    // Late money is its own item on the admin's list (late-money.ts): then this check is kept as a record only.
    const lateMoney = outcome.startsWith("applied:late_money_")
    const note = lateMoney
      ? `${money} was ${tx.status} at the gateway and its webhook had not come: ${describeOutcome(outcome)}.`
      : `${money} was ${tx.status} at the gateway, and its webhook had not come: reconciliation recorded it (${describeOutcome(outcome)}).`
    await updateFollowUp(deps.knex, row.id, { kind: lateMoney ? "check" : "reconciled", state: "done", last_status: tx.status, resolved_at: now, note })
    deps.logger.info(`PGS reconciliation: transaction ${tx.id} (${tx.reference}) is ${tx.status} at the gateway; applied (${outcome})`)
    return "applied"
  }
  // Already recorded (its webhook came after all), or deliberately left alone: nothing changed here.
  await updateFollowUp(deps.knex, row.id, { state: "done", last_status: tx.status, resolved_at: now, note: `${tx.status}; ${outcome}` })
  return "settled"
}

/** Not final yet (or unreadable): look again after the backoff; after many looks, tell a person too. */
async function later(deps: CheckDeps, row: FollowUpRow, now: Date, status: string | null): Promise<void> {
  const checks = row.checks + 1
  const tell = checks === RECONCILE.checksBeforeTelling
  await updateFollowUp(deps.knex, row.id, {
    checks,
    next_check_at: nextCheckAt(checks, now),
    ...(status ? { last_status: status } : {}),
  })
  if (tell) {
    const note = `Transaction ${row.transaction_id} is still ${status ?? "unreadable"} at the gateway after ${checks} reads over several days: check it in the gateway dashboard.`
    await openAttention(deps, row, note)
  }
}

/** A "still not final" item is answered once the gateway has a final status. */
async function closeStuck(deps: CheckDeps, row: FollowUpRow, now: Date, status: string): Promise<void> {
  const stuck = await followUpByKey(deps.knex, `stuck:${row.transaction_id}`)
  if (stuck?.state !== "needs_person") return
  await updateFollowUp(deps.knex, stuck.id, { state: "done", resolved_at: now, note: `${stuck.note ?? ""} Read again: the gateway says ${status} now.`.trim() })
}

async function openAttention(deps: CheckDeps, row: FollowUpRow, note: string): Promise<void> {
  await openFollowUp(deps.knex, {
    key: `stuck:${row.transaction_id}`,
    kind: "stuck",
    state: "needs_person",
    transaction_id: row.transaction_id,
    reference: row.reference,
    amount_minor: row.amount_minor === null ? null : Number(row.amount_minor),
    currency_code: row.currency_code,
    note,
  })
  deps.logger.warn(`PGS reconciliation: ${note}`)
}

async function eventOutcome(knex: Knex, id: string): Promise<string | null> {
  const row = await knex(WEBHOOK_EVENT_TABLE).where({ id }).first("outcome", "processed_at")
  if (!row?.processed_at) return row?.outcome === "error" ? "error" : null
  return row.outcome ? fromStorableText(row.outcome) : null
}

/** The outcome in the shop admin's words. */
const DESCRIPTIONS: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^applied:authorized$/, () => "the payment is authorized; the order is placed"],
  [/^applied:(captured|successful)$/, () => "the payment is recorded as paid; the order is placed"],
  [/^applied:late_money_(void|refund)$/, () => "the money was given back, as no order keeps it"],
  [/^applied:payout_(\w+)$/, (m) => `the payout is now ${m[1]}`],
  [/^applied:\w+_order_(failed|canceled)$/, (m) => `the order's payment is marked ${m[1]}`],
  [/^applied:session_(\w+)$/, (m) => `the payment is marked ${m[1]}`],
]

export function describeOutcome(outcome: string): string {
  for (const [pattern, words] of DESCRIPTIONS) {
    const m = pattern.exec(outcome)
    if (m) return words(m)
  }
  return outcome
}
