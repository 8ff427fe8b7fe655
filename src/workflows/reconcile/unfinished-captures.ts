/**
 * Captures a process died in the middle of. Medusa's capturePaymentWorkflow writes its capture row, then calls the
 * provider, then sets the payment's captured_at (FRAMEWORK-NOTES 57): a kill in between leaves a row the provider
 * never recorded (medusa-tables.ts, unfinishedCaptures). What the gateway holds decides what happens to it:
 *
 * - The gateway made it: its capture webhook (which echoes the row's id as idempotency key) is in the event log and
 *   the gateway's status endpoint says APPROVED. Repaired here, automatically: the row is removed the way Medusa
 *   removes a capture whose call failed, and the gateway's event is run again, so the capture is recorded exactly as
 *   one made at the gateway's dashboard (pgs-events/management.ts: captured_at, the collection's status, the order's
 *   transaction). Safe because it only writes down money the gateway proves it took, for the amount it took.
 * - Nothing proves it: the call may never have reached the gateway, or its webhook is still to come. Medusa shows
 *   money captured that may not be; no money is moved or invented, a person decides (Needs attention). The item
 *   is closed here if the gateway's webhook arrives later and the capture is repaired.
 */
import { Modules } from "@medusajs/framework/utils"
import type { IPaymentModuleService } from "@medusajs/framework/types"
import { fromMinorUnits, IDEMPOTENCY_METADATA_KEY } from "../../gateway"
import { openFollowUp, updateFollowUp } from "../../modules/pgs/follow-ups"
import { unfinishedCaptures, type UnfinishedCapture } from "../../modules/pgs/medusa-tables"
import { WEBHOOK_EVENT_TABLE } from "../../modules/pgs/models"
import { toStorableText } from "../../modules/pgs/storable"
import { unconfirmedCaptureKey } from "../../payments/lost-answers"
import { isSingleStep, type GatewayTransactionType } from "../../payments/session-data"
import { runRecordedEvent } from "../process-pgs-event"
import type { CheckDeps } from "./check"
import { RECONCILE } from "./policy"

export type CaptureRepairs = { repaired: number; told: number }

export async function reconcileUnfinishedCaptures(deps: CheckDeps, now: Date): Promise<CaptureRepairs> {
  const before = new Date(now.getTime() - RECONCILE.unfinishedCaptureAfterMs)
  const since = new Date(now.getTime() - RECONCILE.watchDays * 86_400_000)
  const result: CaptureRepairs = { repaired: 0, told: 0 }
  for (const capture of await unfinishedCaptures(deps.knex, before, since, RECONCILE.batch)) {
    // A single-step payment was taken at authorization: its provider capture records nothing.
    if (isSingleStep(capture.data.transaction_type as GatewayTransactionType)) continue
    try {
      const outcome = await settle(deps, capture, now)
      if (outcome) result[outcome]++
    } catch (error) {
      deps.logger.error(`PGS reconciliation: capture ${capture.id} of payment ${capture.payment_id} could not be settled: ${(error as Error).message}`)
    }
  }
  return result
}

async function settle(deps: CheckDeps, capture: UnfinishedCapture, now: Date): Promise<"repaired" | "told" | null> {
  const money = `${fromMinorUnits(capture.amount_minor, capture.currency_code)} ${capture.currency_code.toUpperCase()}`
  const reference = typeof capture.data.reference === "string" ? capture.data.reference : null
  const event = reference ? await gatewayCaptureEvent(deps, reference, capture.id) : null
  // Its webhook is being applied right now (it waits for Medusa's call): the next run looks again.
  if (event && !event.processed_at && event.outcome === null) return null
  const tx = event?.subject_id ? ((await deps.client.status.transaction(event.subject_id))?.transaction ?? null) : null
  const item = {
    key: unconfirmedCaptureKey(capture.id),
    transaction_id: typeof capture.data.transaction_id === "string" ? capture.data.transaction_id : null,
    reference,
    amount_minor: capture.amount_minor,
    currency_code: capture.currency_code,
  }
  if (tx && tx.status === "APPROVED" && tx.transaction_type.toUpperCase() === "CAPTURE") {
    const paid = `${fromMinorUnits(tx.amount, tx.currency)} ${tx.currency.toUpperCase()}`
    const { row } = await openFollowUp(deps.knex, { ...item, kind: "reconciled", state: "watching" })
    // Run again, the event finds no Medusa row with its key and records the capture as made at the gateway. If this
    // process dies between the two writes, the retry job runs the event (it is unprocessed again).
    await deps.knex(WEBHOOK_EVENT_TABLE).where({ id: event!.id }).update({ processed_at: null, outcome: null, error: null, next_attempt_at: null, updated_at: new Date() })
    await deps.container.resolve<IPaymentModuleService>(Modules.PAYMENT).deleteCaptures([capture.id])
    const ran = await runRecordedEvent(deps.container, event!.id)
    if (!ran?.outcome?.startsWith("applied:") && ran?.outcome !== "ignored:already_recorded") {
      deps.logger.warn(`PGS reconciliation: capture ${tx.id} was re-run and answered ${ran?.outcome ?? "an error"}; the retry job runs it again`)
      return null
    }
    const note = `A capture of ${paid} was made at the gateway (transaction ${tx.id}), but the server that asked for it stopped before Medusa marked the payment captured: reconciliation recorded it.`
    await updateFollowUp(deps.knex, row.id, { kind: "reconciled", state: "done", resolved_at: now, last_status: tx.status, note })
    deps.logger.info(`PGS reconciliation: payment ${capture.payment_id}: ${note}`)
    return "repaired"
  }
  const declined = tx ? ` The gateway answered it ${tx.status}: it took no money.` : ""
  const note =
    `Medusa recorded a capture of ${money} on ${capture.created_at.toISOString().slice(0, 16).replace("T", " ")} UTC that the gateway never confirmed: ` +
    `the server stopped while asking for it, so the order may show money that was not taken.${declined} Look up the payment's transaction ` +
    `${item.transaction_id ?? ""} in the gateway's dashboard. If it shows this capture, nothing is lost: its message will arrive and this item closes by itself. ` +
    "If it does not, the money is still only authorized: capture it in the gateway's dashboard (its capture then replaces this one in Medusa and this item closes), or, if the order should not be charged, void it there."
  const { opened } = await openFollowUp(deps.knex, { ...item, kind: "unknown_management", state: "needs_person", note })
  if (opened) deps.logger.warn(`PGS reconciliation: payment ${capture.payment_id}: ${note}`)
  return opened ? "told" : null
}

type EventRow = { id: string; subject_id: string | null; processed_at: Date | null; outcome: string | null }

/** The gateway's capture webhook carrying this capture row's id as its idempotency key, if it came. */
async function gatewayCaptureEvent(deps: CheckDeps, reference: string, captureId: string): Promise<EventRow | null> {
  const row = await deps.knex(WEBHOOK_EVENT_TABLE)
    .where({ reference: toStorableText(reference) })
    .where("event", "like", "transaction-svc:transaction:management:%")
    .whereRaw("payload->'metadata'->>? = ?", [IDEMPOTENCY_METADATA_KEY, captureId])
    .whereNull("deleted_at")
    .orderBy("received_at", "asc")
    .first("id", "subject_id", "processed_at", "outcome")
  return (row as EventRow | undefined) ?? null
}
