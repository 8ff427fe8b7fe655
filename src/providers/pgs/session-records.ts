/**
 * The two writes the provider makes beside the data it returns to Medusa: a deleted session kept on record (so
 * money the gateway takes for it later is provably this store's and goes back), and an unauthorized outcome
 * saved before Medusa would answer it with a bare 400.
 */
import type { AuthorizePaymentOutput } from "@medusajs/framework/types"
import { orderIdOfSession, saveSessionOutcome } from "../../modules/pgs/medusa-tables"
import { recordRetiredSession } from "../../modules/pgs/retired-sessions"
import type { PgsSessionData } from "../../payments/session-data"
import { toStoredSessionData } from "../../payments/stored-session-data"
import { MEDUSA_ACCEPTED_AT_AUTHORIZE } from "../../payments/status-table"
import { verified } from "./attempt"
import type { ProviderDeps } from "./deps"

/** Gateway sessions cannot be deleted; an unpaid one simply never becomes a transaction. */
export async function retireSession(deps: ProviderDeps, raw: Record<string, unknown> | undefined): Promise<void> {
  if (!deps.knex) return
  try {
    const d = verified(deps, raw)
    // Medusa calls this before it deletes the row: the session's order can still be read. Without it the record is
    // still kept (its late money is then told as a cart's).
    const order_id = await orderIdOfSession(deps.knex, d.session_id).catch(() => null)
    await recordRetiredSession(deps.knex, {
      session_id: d.session_id,
      reference: d.reference,
      terminal_id: d.terminal_id,
      transaction_id: d.transaction_id ?? null,
      amount_minor: d.amount_minor,
      currency_code: d.currency_code,
      order_id,
    })
  } catch (error) {
    deps.logger.warn(`[pgs] a deleted payment session could not be kept on record: ${(error as Error).message}`)
  }
}

/**
 * Medusa quirk (FRAMEWORK-NOTES 13): for any status but authorized/captured/pending_authorization the payment
 * module saves the session and throws a MedusaError NOT_ALLOWED, which authorizePaymentSessionStep re-throws as
 * is, so cart completion answers 400 "Session … was not authorized" and its requires_more branch
 * (PAYMENT_REQUIRES_MORE_ERROR → 200 {type: "cart", error}) is never reached. So we save the session row
 * ourselves (the payment module's own connection and table) and throw a plain Error: the step only logs it,
 * re-reads the session and raises the documented requires_more / authorization error for the storefront.
 */
export async function reportUnauthorized(deps: ProviderDeps, outcome: AuthorizePaymentOutput, storedBefore: unknown): Promise<void> {
  if (MEDUSA_ACCEPTED_AT_AUTHORIZE.has(outcome.status) || !deps.knex) return
  const data = outcome.data as PgsSessionData
  try {
    await saveSessionOutcome(deps.knex, data.session_id, outcome.status, toStoredSessionData(data, storedBefore))
  } catch (error) {
    deps.logger.warn(`[pgs] could not save session ${data.session_id} before reporting ${outcome.status}: ${(error as Error).message}`)
    return // Medusa then saves it itself (and answers the 400 described above)
  }
  // Medusa's step logs this line at error level whatever it says (no way around it: FRAMEWORK-NOTES 13), so it says
  // what it is: for requires_more, the shopper's next step, not a failure.
  if (outcome.status === "requires_more")
    throw new Error(`PGS payment session ${data.session_id} waits for the shopper's next step (requires_more: a redirect or 3-D Secure); expected, not a failure`)
  throw new Error(`PGS payment session ${data.session_id} is ${outcome.status}${data.error ? `: ${data.error.message}` : ""}`)
}
