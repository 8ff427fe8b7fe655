/**
 * A capture or refund whose share came out below nothing (lib/operation-shares.ts): the gateway was sent more for the
 * payment's earlier captures or refunds than Medusa's records of them add up to, rounded to the cent. It happens when
 * amounts with a fraction of a cent are recorded while another operation of the payment is on its way (a declined
 * one's row deleted after a later one was sent as its share). Nothing is sent for the row, and the difference stays
 * until Medusa's rows reach the whole: the shop admin is told on "Needs attention" in words, one item per payment and
 * kind, brought up to date by the next such row, and listed again after it was marked handled.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { fromMinorUnits } from "../gateway"
import { openFollowUp, updateFollowUp } from "../modules/pgs/follow-ups"
import type { PgsSessionData } from "./session-data"

type Logger = { warn(message: string): void }

export const amountDriftKey = (transactionId: string, what: "capture" | "refund") => `drift:${what}:${transactionId}`

function noteOf(current: PgsSessionData, what: "capture" | "refund", overMinor: number): string {
  const money = `${fromMinorUnits(overMinor, current.currency_code)} ${current.currency_code.toUpperCase()}`
  const said =
    what === "refund"
      ? `The gateway refunded ${money} more of this payment than Medusa's refunds of it add up to, rounded to the cent: the order shows the customer ${money} less refunded than they got back.`
      : `The gateway captured ${money} more of this payment than Medusa's captures of it add up to, rounded to the cent: the customer was charged ${money} more than the order shows captured.`
  const todo =
    what === "refund"
      ? "No money is missing from the customer; the store gave back that much more."
      : `Refund the ${money} in the gateway's dashboard if the customer should not pay it (that refund is recorded on the order).`
  return (
    `${said} It comes from amounts with a fraction of a cent recorded while another ${what} of the payment was on its way; Medusa's latest ${what} was not sent to the gateway (its share was below nothing). ` +
    `${todo} Compare the order with the payment in the gateway's dashboard, then mark this handled.`
  )
}

/** Lists the difference, or brings its item up to date. Never throws: the operation's own outcome is what Medusa gets. */
export async function rememberAmountDrift(knex: Knex | null, logger: Logger, current: PgsSessionData, what: "capture" | "refund", overMinor: number): Promise<void> {
  if (!knex || !current.transaction_id || overMinor <= 0) return
  try {
    const fields = { kind: "amount_drift" as const, state: "needs_person" as const, note: noteOf(current, what, overMinor) }
    const { opened, row } = await openFollowUp(knex, {
      ...fields,
      key: amountDriftKey(current.transaction_id, what),
      transaction_id: current.transaction_id,
      reference: current.reference,
      amount_minor: overMinor,
      currency_code: current.currency_code.toLowerCase(),
    })
    if (!opened && (row.state === "done" || row.note !== fields.note)) await updateFollowUp(knex, row.id, { ...fields, resolved_at: null })
  } catch (cause) {
    logger.warn(`[pgs] a difference between Medusa's ${what}s and the gateway's could not be listed for the admin: ${(cause as Error).message}`)
  }
}
