/**
 * A capture, refund or void whose answer was lost (GatewayOutcomeUnknownError): the status endpoint cannot prove a
 * capture or refund happened, so it is not retried; Medusa drops its row when the provider throws. It is put on the
 * shop admin's "Needs attention" list until the gateway's management webhook (which echoes the idempotency key)
 * settles it (workflows/pgs-events/management.ts records the operation and closes it).
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
type Logger = { warn(message: string): void }
import { fromMinorUnits, type GatewayOutcomeUnknownError } from "../gateway"
import { openFollowUp } from "../modules/pgs/follow-ups"
import { runAgainTakenForMedusas } from "../modules/pgs/webhook-queue"

const WORDS = { CAPTURE: "capture", REFUND: "refund", VOID: "void" } as Record<string, string>

export const lostAnswerKey = (idempotencyKey: string) => `manage:${idempotencyKey}`

/**
 * A Medusa capture or refund row whose call died with its process and that the gateway never confirmed
 * (reconciliation). Keyed by the row's id; "refund:" is taken by late money given back (keyed by transaction).
 */
export const unconfirmedOperationKey = (kind: "capture" | "refund", rowId: string) => `${kind === "capture" ? "capture" : "medusa-refund"}:${rowId}`

/** The capture or refund row an unconfirmedOperationKey names, or null for any other key. */
export function unconfirmedOperationOf(key: string): { kind: "capture" | "refund"; rowId: string } | null {
  const [prefix, rowId] = [key.slice(0, key.indexOf(":")), key.slice(key.indexOf(":") + 1)]
  if (!rowId) return null
  return prefix === "capture" ? { kind: "capture", rowId } : prefix === "medusa-refund" ? { kind: "refund", rowId } : null
}

export async function rememberLostAnswer(knex: Knex | null, logger: Logger, error: GatewayOutcomeUnknownError): Promise<void> {
  if (!knex) return
  const a = error.attempt
  const what = WORDS[a.transactionType] ?? a.transactionType.toLowerCase()
  const money = `${fromMinorUnits(a.amount, a.currency)} ${a.currency.toUpperCase()}`
  try {
    await openFollowUp(knex, {
      key: lostAnswerKey(a.idempotencyKey),
      kind: "unknown_management",
      state: "needs_person",
      transaction_id: a.parentTransactionId,
      reference: a.reference,
      amount_minor: a.amount,
      currency_code: a.currency.toLowerCase(),
      note: `A ${what} of ${money} was sent to the gateway, but its answer was lost, so Medusa did not record it. If the gateway's dashboard shows it, it is recorded here when the gateway's message arrives; if not, ${a.transactionType === "VOID" ? "void it in the gateway's dashboard (Medusa may show the order canceled already): that void is recorded here" : `try the ${what} again`}.`,
    })
    // The gateway's message may have come already and been taken for this call's own (it waited for the call only so
    // long): it runs again now that the call failed, and records the operation (pgs-events/management.ts).
    if (await runAgainTakenForMedusas(knex, a.reference, a.idempotencyKey)) logger.warn(`[pgs] the gateway's message for the lost ${what} answer (key ${a.idempotencyKey}) runs again to record it`)
  } catch (cause) {
    logger.warn(`[pgs] a lost ${what} answer could not be listed for the admin: ${(cause as Error).message}`)
  }
}
