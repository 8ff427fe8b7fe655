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
import { fromMinorUnits, GatewayOutcomeUnknownError, isGatewayError, type AnyGatewayError } from "../gateway"
import { shortened } from "../lib/shortened"
import { openFollowUp, updateFollowUp } from "../modules/pgs/follow-ups"
import { lostAnswerKey } from "./lost-answers"
import type { PgsSessionData } from "./session-data"

type Logger = { warn(message: string): void }

const status = (e: AnyGatewayError) => (e.statusCode ? ` (HTTP ${e.statusCode})` : "")

/**
 * Why a void or refund did not happen, in a shop admin's words; the client's full diagnostics are in the log.
 * Also used by refund-failed.ts.
 */
export function reasonOf(error: AnyGatewayError | MedusaError): string {
  // The gateway's decline ("The gateway declined the VOID: …", providers/pgs/management.ts), as the sentence goes on.
  if (!isGatewayError(error)) return error.message.charAt(0).toLowerCase() + error.message.slice(1).replace(/\.+$/, "")
  switch (error.type) {
    case "unavailable":
    case "timeout":
    case "rate_limited":
      return `the gateway could not be reached just then${status(error)}`
    case "unauthorized":
    case "forbidden":
      return `the gateway refused the store's access${status(error)}: check the plugin's credentials and terminal`
    case "validation": {
      // The gateway's own words on what it refused ("amount must be less than or equal to 2050, …"), kept short.
      const said = error.fields.map((f) => `${f.property} ${f.message}`).join("; ")
      const who = error.local ? "the plugin refused to send the request" : `the gateway refused the request${status(error)}`
      return `${who}${said ? `: "${shortened(said, 200)}"` : ""}`
    }
    default:
      return `the gateway refused the request${status(error)}`
  }
}

const DOUBLE_STEP_TODO =
  "Medusa shows the order canceled all the same. Look at the payment in the gateway's dashboard: if it is only authorized, void it there (that void is recorded here and closes this); if money was captured, refund it there (it is recorded on the order; Medusa's order page cannot refund a canceled order), then mark this handled."
const SINGLE_STEP_TODO =
  "It was taken in one step, so only a refund gives it back: if no order keeps this money, refund it in the gateway's dashboard, then mark this handled."

/**
 * Lists the void unless its outcome is unknown (a lost answer is listed by lost-answers.ts), or the error is not the
 * gateway's answer (a bug of ours, logged by the caller). `singleStep`: the money was taken in one step.
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
  if (!isGatewayError(error) && !(error instanceof MedusaError)) return
  try {
    const money = `${fromMinorUnits(current.amount_minor, current.currency_code)} ${current.currency_code.toUpperCase()}`
    const note = singleStep
      ? `Medusa asked the gateway to void this payment of ${money}, and it was not voided. ${SINGLE_STEP_TODO}`
      : `Medusa asked the gateway to void this payment of ${money}, and it was not voided: ${reasonOf(error)}. ${DOUBLE_STEP_TODO}`
    const { opened, row } = await openFollowUp(knex, {
      key: lostAnswerKey(idempotencyKey),
      kind: "void_not_made",
      state: "needs_person",
      transaction_id: current.transaction_id,
      reference: current.reference,
      amount_minor: current.amount_minor,
      currency_code: current.currency_code.toLowerCase(),
      note,
    })
    // The payment's earlier item was marked handled: this failure is new.
    if (!opened && row.state === "done") await updateFollowUp(knex, row.id, { kind: "void_not_made", state: "needs_person", resolved_at: null, note })
  } catch (cause) {
    logger.warn(`[pgs] a void that did not happen could not be listed for the admin: ${(cause as Error).message}`)
  }
}
