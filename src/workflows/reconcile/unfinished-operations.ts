/**
 * Captures and refunds a process died in the middle of. Medusa's capture and refund workflows write their row, then
 * call the provider, then finish (FRAMEWORK-NOTES 57): a kill in between leaves a row the provider never recorded
 * (medusa-tables.ts, unfinishedOperations). What the gateway holds decides what happens to it:
 *
 * - The gateway made it: its management webhook (which echoes the row's id as idempotency key) is in the event log
 *   and the gateway's status endpoint says APPROVED. Repaired here, automatically: the row is removed as Medusa
 *   removes one whose call failed (medusa-operation-rows.ts) and the gateway's event is run again, so the operation
 *   is recorded exactly as one made in the gateway's dashboard (pgs-events/management.ts, which also writes the
 *   record): a capture's captured_at, a refund's own row, the collection's status and the order's transaction,
 *   keeping the note, reason and author a person gave the row. Safe because it only writes down money the gateway
 *   proves it moved, for the amount it moved.
 * - Nothing proves it: the call may never have reached the gateway, or its webhook is still to come. Medusa shows
 *   money captured that may not be, or refunded that the shopper may not have: no money is moved or invented, a
 *   person decides (Needs attention). The item closes when a later run repairs the operation (its webhook came after
 *   all), or when the same operation made in the gateway's dashboard takes the row's place.
 */
import { fromMinorUnits } from "../../gateway"
import { openFollowUp } from "../../modules/pgs/follow-ups"
import { unfinishedOperations, type UnfinishedOperation } from "../../modules/pgs/medusa-tables"
import { WEBHOOK_EVENT_TABLE } from "../../modules/pgs/models"
import { managementEventFor } from "../../modules/pgs/webhook-queue"
import { unconfirmedOperationKey } from "../../payments/lost-answers"
import { isSingleStep, type GatewayTransactionType } from "../../payments/session-data"
import { removeOperationRow } from "../medusa-operation-rows"
import { runRecordedEvent } from "../process-pgs-event"
import { underEventLock } from "../pgs-events/event-lock"
import type { CheckDeps } from "./check"
import { RECONCILE } from "./policy"
import { sessionFields } from "../../payments/stored-session-data"

export type OperationRepairs = { repaired: number; told: number }

export async function reconcileUnfinishedOperations(deps: CheckDeps, kind: UnfinishedOperation["kind"], now: Date): Promise<OperationRepairs> {
  const before = new Date(now.getTime() - RECONCILE.unfinishedOperationAfterMs)
  const since = new Date(now.getTime() - RECONCILE.watchDays * 86_400_000)
  const result: OperationRepairs = { repaired: 0, told: 0 }
  for (const row of await unfinishedOperations(deps.knex, kind, before, since, RECONCILE.batch)) {
    const operation = { ...row, data: sessionFields(row.data) }
    // A single-step payment was taken at authorization: its provider capture records nothing.
    if (kind === "capture" && isSingleStep(operation.data.transaction_type as GatewayTransactionType)) continue
    try {
      const outcome = await settle(deps, operation)
      if (outcome) result[outcome]++
    } catch (error) {
      deps.logger.error(`PGS reconciliation: ${kind} ${operation.id} of payment ${operation.payment_id} could not be settled: ${(error as Error).message}`)
    }
  }
  return result
}

const TRANSACTION_TYPE = { capture: "CAPTURE", refund: "REFUND" } as const

async function settle(deps: CheckDeps, operation: UnfinishedOperation): Promise<"repaired" | "told" | null> {
  const { kind } = operation
  const reference = typeof operation.data.reference === "string" ? operation.data.reference : null
  const event = reference ? await managementEventFor(deps.knex, reference, operation.id) : null
  // Its webhook is being applied right now (it waits for Medusa's call): the next run looks again.
  if (event && !event.processed_at && event.outcome === null) return null
  const tx = event?.subject_id ? ((await deps.client.status.transaction(event.subject_id))?.transaction ?? null) : null
  const item = {
    key: unconfirmedOperationKey(kind, operation.id),
    transaction_id: typeof operation.data.transaction_id === "string" ? operation.data.transaction_id : null,
    reference,
    amount_minor: operation.amount_minor,
    currency_code: operation.currency_code,
  }
  if (tx && tx.status === "APPROVED" && tx.transaction_type.toUpperCase() === TRANSACTION_TYPE[kind]) {
    // Run again, the event finds Medusa's row removed and records the operation as made at the gateway, in the row's
    // place, and writes the record (pgs-events/management.ts). The event is made unprocessed first: if this process
    // dies before the row is removed, its webhook path runs once more, finds the row, and the next run comes back here;
    // if it dies after, the retry job runs the event.
    // Both under the event's lock: a run of the event in between (the retry job, a later event of the payment, which
    // runs the unprocessed ones before it) would find the row still there, take it for Medusa's own call and mark the
    // event processed, and the row removed then left the gateway's operation recorded nowhere, for good.
    const removed = await underEventLock(deps.container, reference!, async () => {
      const current = await managementEventFor(deps.knex, reference!, operation.id)
      if (!current || (!current.processed_at && current.outcome === null)) return false // recorded, not run yet: the retry job's
      await deps.knex(WEBHOOK_EVENT_TABLE).where({ id: current.id }).update({ processed_at: null, outcome: null, error: null, next_attempt_at: null, updated_at: new Date() })
      await removeOperationRow(deps.container, kind, operation.id)
      return true
    })
    if (!removed) return null
    const ran = await runRecordedEvent(deps.container, event!.id)
    if (!ran?.outcome?.startsWith("applied:") && ran?.outcome !== "ignored:already_recorded") {
      deps.logger.warn(`PGS reconciliation: ${kind} ${tx.id} was re-run and answered ${ran?.outcome ?? "nothing (running elsewhere)"}; the retry job runs it again`)
      return null
    }
    deps.logger.info(`PGS reconciliation: payment ${operation.payment_id}: the gateway's ${kind} ${tx.id} recorded in place of Medusa's unfinished row ${operation.id}`)
    return "repaired"
  }
  const note = unconfirmedNote(operation, item.transaction_id, tx ? ` The gateway answered it ${tx.status}: it moved no money.` : "")
  const { opened } = await openFollowUp(deps.knex, { ...item, kind: "unknown_management", state: "needs_person", note })
  if (opened) deps.logger.warn(`PGS reconciliation: payment ${operation.payment_id}: ${note}`)
  return opened ? "told" : null
}

const lookUpFirst = (transactionId: string | null) => `Look up the payment's transaction ${transactionId ?? ""} in the gateway's dashboard.`

/** What a person reads on Needs attention about a capture or refund the gateway never confirmed, and what to do. */
function unconfirmedNote(operation: UnfinishedOperation, transactionId: string | null, declined: string): string {
  const money = `${fromMinorUnits(operation.amount_minor, operation.currency_code)} ${operation.currency_code.toUpperCase()}`
  const when = operation.created_at.toISOString().slice(0, 16).replace("T", " ")
  // Medusa's workflow did not finish (its order transaction, the collection's totals): only Medusa's own removal and
  // a new call put that right, so it is listed even when the gateway had nothing to be asked.
  if (operation.amount_minor <= 0)
    return (
      `Medusa recorded a ${operation.kind} of ${operation.amount} ${operation.currency_code.toUpperCase()} on ${when} UTC, a fraction of a cent that the ${operation.kind}s before it had already sent to the gateway, ` +
      `but the server stopped before Medusa finished recording it: by the plugin's count no money moved for it. ${lookUpFirst(transactionId)} If the gateway shows no ${operation.kind} for it, choose Remove from the order here; then, if the order should show it, make the ${operation.kind} again from the order page (the gateway is not asked for it).`
    )
  const lookUp = lookUpFirst(transactionId)
  if (operation.kind === "capture")
    return (
      `Medusa recorded a capture of ${money} on ${when} UTC that the gateway never confirmed: ` +
      `the server stopped while asking for it, so the order may show money that was not taken.${declined} ${lookUp} If it shows this capture, nothing is lost: its message will arrive and this item closes by itself. ` +
      "If it does not, the money is still only authorized: capture it in the gateway's dashboard (its capture then replaces this one in Medusa and this item closes), or, if the order should not be charged, void it there."
    )
  return (
    `Medusa recorded a refund of ${money} on ${when} UTC that the gateway never confirmed: ` +
    `the server stopped while asking for it, so the order shows money given back that the customer may not have received.${declined} ${lookUp} If it shows this refund, nothing is lost: its message will arrive and this item closes by itself. ` +
    "If it does not, choose Remove from the order here and refund again from the order page (on a canceled order Medusa cannot: refund in the gateway's dashboard), or refund the same amount in the gateway's dashboard: its refund then replaces this one in Medusa and this item closes."
  )
}
