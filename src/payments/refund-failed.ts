/**
 * A refund of an order's payment that did not happen (the gateway declined it, refused the call, or could not be
 * reached) or whose answer was lost. Where a person asked for it, Medusa shows them the error. Where Medusa's order cancel asked for it,
 * Medusa logs the error and cancels the order all the same (FRAMEWORK-NOTES 68); the plugin lists that after the
 * order.canceled event (workflows/refund-not-made.ts), but an event lost with its process, or a subscriber run that
 * failed (the Redis event bus does not retry one), would leave it unlisted. So the failure is written down here, before
 * the error goes back to Medusa, and reconciliation reads it again a few minutes later
 * (workflows/reconcile/failed-refunds.ts): an order canceled by then gets its "Refund not made" item.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { MedusaError } from "@medusajs/framework/utils"
import { fromMinorUnits, GatewayOutcomeUnknownError, isGatewayError } from "../gateway"
import { openFollowUp } from "../modules/pgs/follow-ups"
import { recordedPaymentOfSession } from "../modules/pgs/medusa-tables"
import type { PgsSessionData } from "./session-data"
import { reasonOf } from "./void-not-made"

type Logger = { warn(message: string): void }

export const failedRefundKey = (idempotencyKey: string) => `refund-failed:${idempotencyKey}`

/** When reconciliation first looks: Medusa's cancel marks the order canceled a moment after its refund step. */
export const FAILED_REFUND_FIRST_CHECK_MS = 2 * 60_000

/**
 * Writes the failed refund down for reconciliation, unless the error is not the gateway's answer (a bug of ours,
 * logged by the caller) or the payment has no order (no cancel can have asked for it). A lost answer is written down
 * too: Medusa's cancel treats it as a failure all the same (its "Answer lost" item is lost-answers.ts's; a canceled
 * order's is handed over to its "Refund not made", workflows/refund-not-made.ts). Never
 * throws: the refund's own error is what Medusa must get.
 */
export async function rememberFailedRefund(
  knex: Knex | null,
  logger: Logger,
  current: PgsSessionData,
  idempotencyKey: string | undefined,
  amountMinor: number,
  error: unknown,
): Promise<void> {
  if (!knex || !idempotencyKey) return
  if (!isGatewayError(error) && !(error instanceof MedusaError)) return
  try {
    const orderId = (await recordedPaymentOfSession(knex, current.session_id))?.order_id
    if (!orderId) return
    const money = `${fromMinorUnits(amountMinor, current.currency_code)} ${current.currency_code.toUpperCase()}`
    await openFollowUp(knex, {
      key: failedRefundKey(idempotencyKey),
      kind: "refund_failed",
      state: "watching",
      transaction_id: current.transaction_id,
      reference: current.reference,
      order_id: orderId,
      amount_minor: amountMinor,
      currency_code: current.currency_code.toLowerCase(),
      next_check_at: new Date(Date.now() + FAILED_REFUND_FIRST_CHECK_MS),
      note:
        error instanceof GatewayOutcomeUnknownError
          ? `Medusa asked the gateway to refund ${money} of this payment, and its answer was lost: the gateway may have made it, and its dashboard shows whether it did.`
          : `Medusa asked the gateway to refund ${money} of this payment, and it was not refunded: ${reasonOf(error as MedusaError)}.`,
    })
  } catch (cause) {
    logger.warn(`[pgs] a refund that did not happen could not be written down for reconciliation: ${(cause as Error).message}`)
  }
}
