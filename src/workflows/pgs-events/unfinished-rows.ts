/**
 * Management webhooks and the capture and refund rows Medusa left when a process died in the middle of its call
 * (reconcile/unfinished-operations.ts): an operation made in the gateway's dashboard takes the place of a row a
 * person was told about, and the gateway's record of the very operation that died writes the record of its repair.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { fromMinorUnits, type Transaction } from "../../gateway"
import { followUpByKey, openFollowUp, updateFollowUp } from "../../modules/pgs/follow-ups"
import { unconfirmedOperationKey } from "../../payments/lost-answers"
import { removeOperationRow } from "../medusa-operation-rows"
import type { EventContext } from "./context"
import type { PaymentView } from "./lookup"

type Kind = "capture" | "refund"

/**
 * Medusa capture rows on Needs attention as never confirmed by the gateway: a capture or a void made at the gateway
 * is what a person does about them, so the rows are removed and their items closed with `settledBy` added.
 */
export async function removeUnconfirmedCaptures(ctx: EventContext, payment: PaymentView, settledBy: string): Promise<void> {
  for (const capture of payment.captures) await removeUnconfirmed(ctx, "capture", capture.id, settledBy)
}

/**
 * The same for a refund: one Medusa refund row on Needs attention for the amount the gateway refunded (a person
 * refunded it again in the gateway's dashboard) is removed, so the gateway's refund is recorded in its place and
 * Medusa's guard (refunded ≤ captured) does not count it twice.
 */
export async function removeUnconfirmedRefund(ctx: EventContext, payment: PaymentView, amountMinor: number, settledBy: string): Promise<void> {
  for (const refund of payment.refunds) if (await removeUnconfirmed(ctx, "refund", refund.id, settledBy, amountMinor)) return
}

/** Removes one such row and closes its item (only when its amount is `amountMinor`, if given); true if it did. */
async function removeUnconfirmed(ctx: EventContext, kind: Kind, rowId: string, settledBy: string, amountMinor?: number): Promise<boolean> {
  const knex = ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const row = await followUpByKey(knex, unconfirmedOperationKey(kind, rowId))
  if (row?.state !== "needs_person") return false
  if (amountMinor !== undefined && Number(row.amount_minor) !== amountMinor) return false
  await removeOperationRow(ctx.container, kind, rowId)
  const note = `${row.note ?? ""} ${settledBy}`.trim()
  await updateFollowUp(knex, row.id, { state: "done", resolved_at: new Date(), note })
  return true
}

/**
 * The record of a repair, on Needs attention as "Found by reconciliation": the gateway's operation was recorded in
 * place of Medusa's row `rowId`. An item that told a person about the row closes with it.
 */
export async function recordRepair(ctx: EventContext, kind: Kind, rowId: string, tx: Transaction, payment: PaymentView): Promise<void> {
  const knex = ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const moved = `${fromMinorUnits(tx.amount, tx.currency)} ${tx.currency.toUpperCase()}`
  const note =
    kind === "capture"
      ? `A capture of ${moved} was made at the gateway (transaction ${tx.id}), but the server that asked for it stopped before Medusa marked the payment captured: reconciliation recorded it.`
      : `A refund of ${moved} was made at the gateway (transaction ${tx.id}), but the server that asked for it stopped before Medusa finished recording it: reconciliation recorded it on the order.`
  const { opened, row } = await openFollowUp(knex, {
    key: unconfirmedOperationKey(kind, rowId),
    kind: "reconciled",
    transaction_id: typeof payment.data?.transaction_id === "string" ? payment.data.transaction_id : null,
    reference: tx.reference,
    amount_minor: tx.amount,
    currency_code: tx.currency.toLowerCase(),
  })
  if (!opened && row.kind === "reconciled" && row.state === "done") return // written already (a webhook delivered again)
  await updateFollowUp(knex, row.id, { kind: "reconciled", state: "done", resolved_at: new Date(), last_status: tx.status, note })
  ctx.logger.info(`PGS: payment ${payment.id}: ${note}`)
}
