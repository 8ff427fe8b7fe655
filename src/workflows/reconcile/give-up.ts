/**
 * Orders awaiting a bank-redirect payment the shopper abandoned: the gateway never cancels one (a late approval
 * would be dropped), so after the configured hours the order is canceled in Medusa — after one last read of the
 * gateway, and once (the follow-up's unique key). A later approval is then given back (pgs-events/late-money.ts);
 * the transaction stays on the reconciliation list for that.
 */
import { cancelOrderWorkflow } from "@medusajs/core-flows"
import type { MedusaContainer } from "@medusajs/framework/types"
import { PaymentSessionStatus } from "@medusajs/framework/utils"
import { fromMinorUnits } from "../../gateway"
import { openFollowUp, updateFollowUp } from "../../modules/pgs/follow-ups"
import { isPgsProviderId } from "../../payments/session-data"
import { looseQuery } from "../../lib/loose-query"
import { findOrderIdForCollection, orderStatus } from "../pgs-events/lookup"
import { runRecordedEvent } from "../process-pgs-event"
import type { CheckDeps } from "./check"
import { recordGatewayRead } from "./gateway-read-event"
import { RECONCILE } from "./policy"
import { sessionFields } from "../../payments/stored-session-data"

type Awaiting = { session_id: string; collection_id: string; transaction_id: string; amount_minor: number; currency_code: string }

async function awaitingSince(container: MedusaContainer, before: Date): Promise<Awaiting[]> {
  const { data } = await looseQuery(container).graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "data", "payment_collection_id"],
    filters: { status: PaymentSessionStatus.PENDING_AUTHORIZATION, created_at: { $lt: before } },
    pagination: { take: RECONCILE.batch, order: { created_at: "ASC" } },
  })
  return (data as Array<{ id: string; provider_id: string; payment_collection_id: string; data: Record<string, unknown> | null }>).flatMap((s) => {
    const d = sessionFields(s.data)
    if (!isPgsProviderId(s.provider_id) || typeof d.transaction_id !== "string") return []
    return [{ session_id: s.id, collection_id: s.payment_collection_id, transaction_id: d.transaction_id, amount_minor: Number(d.amount_minor), currency_code: String(d.currency_code) }]
  })
}

/** Cancels the orders abandoned for longer than `hours`; answers how many. */
export async function giveUpAbandonedOrders(deps: CheckDeps, now: Date, hours: number): Promise<number> {
  let canceled = 0
  for (const a of await awaitingSince(deps.container, new Date(now.getTime() - hours * 3_600_000))) {
    const orderId = await findOrderIdForCollection(deps.container, a.collection_id)
    if (!orderId || (await orderStatus(deps.container, orderId)) === "canceled") continue
    if (await settledMeanwhile(deps, a.transaction_id)) continue
    const money = `${fromMinorUnits(a.amount_minor, a.currency_code)} ${a.currency_code.toUpperCase()}`
    const { opened, row } = await openFollowUp(deps.knex, {
      key: `give-up:${orderId}`,
      kind: "gave_up",
      transaction_id: a.transaction_id,
      order_id: orderId,
      amount_minor: a.amount_minor,
      currency_code: a.currency_code,
      note: `The shopper never finished paying ${money} at their bank; the order is being canceled after ${hours} hours.`,
    })
    if (!opened) continue
    try {
      await cancelOrderWorkflow(deps.container).run({ input: { order_id: orderId } })
      const note = `The shopper never finished paying ${money} at their bank: the order was canceled after ${hours} hours. If the bank still pays, the money is given back automatically.`
      await updateFollowUp(deps.knex, row.id, { state: "done", resolved_at: now, note })
      deps.logger.info(`PGS: order ${orderId} canceled: its bank-redirect payment ${a.transaction_id} was still PENDING after ${hours} h`)
      canceled++
    } catch (error) {
      const note = `The shopper never finished paying ${money} at their bank, and canceling the order failed (${(error as Error).message}): cancel it by hand.`
      await updateFollowUp(deps.knex, row.id, { state: "needs_person", note })
      deps.logger.error(`PGS: order ${orderId}: ${note}`)
    }
  }
  return canceled
}

/** One last read before giving up: a final status is applied (webhook path) instead. Unreadable: not now. */
async function settledMeanwhile(deps: CheckDeps, transactionId: string): Promise<boolean> {
  try {
    const read = await deps.client.status.transaction(transactionId)
    if (!read) return false
    const recorded = await recordGatewayRead(deps.knex, read.transaction)
    if (!recorded) return false
    await runRecordedEvent(deps.container, recorded.id)
    return true
  } catch (error) {
    deps.logger.warn(`PGS: transaction ${transactionId} could not be read before giving up its order (${(error as Error).message}); not now`)
    return true
  }
}
