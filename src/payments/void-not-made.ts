/**
 * A void Medusa asked for that surely did not happen: the gateway declined it, refused the call, or could not be
 * reached. Every caller of Medusa's cancelPayment (order cancel, payment-collection cancel, a cart completion undone)
 * logs the provider's error and goes on (FRAMEWORK-NOTES 66), so without this the order is canceled while the money
 * stays held or taken at the gateway, and nobody is told. It goes on the shop admin's "Needs attention" list under
 * the key a lost void answer uses, so a void made in the gateway's dashboard closes either
 * (workflows/pgs-events/management.ts).
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { MedusaError } from "@medusajs/framework/utils"
import { fromMinorUnits, GatewayOutcomeUnknownError, isGatewayError } from "../gateway"
import { openFollowUp } from "../modules/pgs/follow-ups"
import { lostAnswerKey } from "./lost-answers"
import type { PgsSessionData } from "./session-data"

type Logger = { warn(message: string): void }

/** Why the void did not happen, in the words the admin reads (never a secret: the gateway's message, or ours). */
function reasonOf(error: unknown): string {
  if (isGatewayError(error)) return error.merchantMessage
  return error instanceof Error ? error.message : String(error)
}

/**
 * Lists the void unless its outcome is unknown (a lost answer is listed by lost-answers.ts). `singleStep`: the money
 * was taken in one step, so only a refund gives it back.
 */
export async function rememberVoidNotMade(
  knex: Knex | null,
  logger: Logger,
  current: PgsSessionData,
  idempotencyKey: string | undefined,
  error: unknown,
  singleStep: boolean,
): Promise<void> {
  if (!knex || !idempotencyKey || error instanceof GatewayOutcomeUnknownError) return
  if (!isGatewayError(error) && !(error instanceof MedusaError)) return // a bug of ours, not the gateway's answer: logged by the caller
  const money = `${fromMinorUnits(current.amount_minor, current.currency_code)} ${current.currency_code.toUpperCase()}`
  const todo = singleStep
    ? "It was taken in one step, so it cannot be voided: if no order keeps this money, refund it in the gateway's dashboard, then mark this done."
    : "Medusa shows the order canceled all the same. Look at the payment in the gateway's dashboard: void it if it is only authorized (that void is recorded here and closes this), or refund what was captured there (on a canceled order, Medusa's order page makes the refund but then reports an error), then mark this done."
  try {
    await openFollowUp(knex, {
      key: lostAnswerKey(idempotencyKey),
      kind: "void_not_made",
      state: "needs_person",
      transaction_id: current.transaction_id,
      reference: current.reference,
      amount_minor: current.amount_minor,
      currency_code: current.currency_code.toLowerCase(),
      note: `Medusa asked the gateway to void this payment of ${money}, and it was not voided: ${reasonOf(error)}. ${todo}`,
    })
  } catch (cause) {
    logger.warn(`[pgs] a void that did not happen could not be listed for the admin: ${(cause as Error).message}`)
  }
}
