/**
 * Money the gateway took that no Medusa payment will keep: the shopper paid for a payment session Medusa has since
 * deleted or replaced (the cart changed), or for an order already canceled (given up, or canceled by the shop).
 * It goes back once, automatically (option refundLateApprovals): an authorization is voided, money taken is
 * refunded. "Once" is the follow-up row's unique key, opened before the gateway is called, so a webhook, a retry
 * and reconciliation in several processes cannot give it back twice. When the answer is lost or the gateway
 * refuses, a person is told (admin "Needs attention"); nothing is retried blindly.
 */
import { fromMinorUnits, GatewayOutcomeUnknownError, type Transaction } from "../../gateway"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { followUpByKey, openFollowUp, updateFollowUp } from "../../modules/pgs/follow-ups"
import type { EventContext, EventOutcome } from "./context"

export type LateMoneyReason = "deleted_session" | "older_attempt" | "canceled_order" | "settled_collection"

const WHY: Record<LateMoneyReason, string> = {
  deleted_session: "the shopper paid after the cart moved on (its payment session was replaced)",
  older_attempt: "the shopper paid an earlier amount of the cart, which has changed since",
  canceled_order: "the order was already canceled when the payment arrived",
  settled_collection: "the order's payment request was already paid or replaced when the payment arrived",
}

/** The follow-up item of a late payment (one per transaction), and the idempotency key of its give-back. */
const itemKey = (transactionId: string) => `refund:${transactionId}`
const GIVE_BACK_PREFIX = "late:"

/**
 * The gateway's message for a void or refund carrying `idempotencyKey`: when it is this file's give-back, it is known
 * as such (no Medusa payment will ever hold that money), and an item left for a person because the give-back's answer
 * was lost is closed. False for any other operation.
 */
export async function settledGiveBack(ctx: EventContext, idempotencyKey: unknown, operation: string): Promise<boolean> {
  if (typeof idempotencyKey !== "string" || !idempotencyKey.startsWith(GIVE_BACK_PREFIX)) return false
  const knex = ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const item = await followUpByKey(knex, itemKey(idempotencyKey.slice(GIVE_BACK_PREFIX.length)))
  if (item && item.state === "needs_person")
    await updateFollowUp(knex, item.id, { state: "done", resolved_at: new Date(), last_status: operation, note: `${item.note ?? ""} The gateway's message confirms it was given back (${operation.toLowerCase()}).`.trim() })
  return true
}

export async function giveBackLateMoney(
  ctx: EventContext,
  tx: Transaction,
  reason: LateMoneyReason,
  orderId: string | null = null,
): Promise<EventOutcome> {
  const knex = ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const money = `${fromMinorUnits(tx.amount, tx.currency)} ${tx.currency.toUpperCase()}`
  const { opened, row } = await openFollowUp(knex, {
    key: itemKey(tx.id),
    kind: "late_refund",
    transaction_id: tx.id,
    reference: tx.reference,
    order_id: orderId,
    amount_minor: tx.amount,
    currency_code: tx.currency.toLowerCase(),
    note: `${money} was paid, but ${WHY[reason]}.`,
  })
  if (!opened) return "ignored:late_money_already_handled"

  const tell = async (sentence: string): Promise<EventOutcome> => {
    await updateFollowUp(knex, row.id, { state: "needs_person", note: `${money} was paid, but ${WHY[reason]}. ${sentence}` })
    ctx.logger.error(`PGS: transaction ${tx.id} (${tx.reference}, ${money}): ${WHY[reason]}. ${sentence}`)
    return "attention:approved_without_payment"
  }
  if (!ctx.pgs.followUpSettings().refundLateApprovals) return tell("Automatic refunds are off: refund it at the gateway.")

  // An authorization only holds the money: releasing it is a void. Money taken (purchase, payment) is refunded.
  const operation = tx.transaction_type.toUpperCase() === "AUTHORIZE" ? "VOID" : "REFUND"
  try {
    const result = await ctx.client.modifications.manage(
      {
        transaction_type: operation,
        terminal_id: tx.terminal_id,
        reference: tx.reference,
        parent_transaction_id: tx.id,
        amount: tx.amount,
        currency: tx.currency,
        metadata: { reason: "late_payment" },
      },
      { idempotencyKey: `${GIVE_BACK_PREFIX}${tx.id}` },
    )
    if (result.kind === "applied" && result.transaction.status !== "APPROVED")
      return tell(`The gateway refused to give it back (${result.transaction.response_message ?? result.transaction.status}): refund it at the gateway.`)
    const done = operation === "VOID" ? "released automatically (voided)" : "refunded automatically"
    await updateFollowUp(knex, row.id, { state: "done", resolved_at: new Date(), last_status: operation, note: `${money} was paid, but ${WHY[reason]}. It was ${done}.` })
    ctx.logger.warn(`PGS: transaction ${tx.id} (${tx.reference}, ${money}): ${WHY[reason]}; ${done}`)
    return `applied:late_money_${operation.toLowerCase()}`
  } catch (error) {
    if (error instanceof GatewayOutcomeUnknownError)
      return tell("The gateway's answer to giving it back was lost: check the gateway dashboard before refunding by hand.")
    return tell(`Giving it back failed (${(error as Error).message}): refund it at the gateway.`)
  }
}
