/**
 * POST /admin/pgs/attention/:id/remove — for a refund on Needs attention as never confirmed by the gateway (its
 * server stopped mid-call: reconcile/unfinished-operations.ts), a person who checked the gateway's dashboard and
 * found nothing removes Medusa's row from the order, so the order no longer shows money the customer never received
 * and the refund can be made again from the order page. Refused when the gateway's message for it is in already (the
 * next reconciliation run records it); should it come later, it is recorded in the row's place (pgs-events/
 * management.ts). A capture the gateway never confirmed is settled in the gateway's dashboard instead: Medusa keeps a
 * payment it counted as fully captured marked so, and only the gateway's capture or void sets that right.
 * On a canceled order, an open "Refund not made" item for the payment is then raised to what it holds (refund-not-made.ts).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { closeOpenFollowUp, followUpById, reopenFollowUp } from "../../../../../../modules/pgs/follow-ups"
import { unconfirmedOperationOf } from "../../../../../../payments/lost-answers"
import { removeOperationRow } from "../../../../../../workflows/medusa-operation-rows"
import { settleRefundNotMadeAfterRemoval } from "../../../../../../workflows/refund-not-made"
import { managementEventFor } from "../../../../../../modules/pgs/webhook-queue"
import { underEventLock } from "../../../../../../workflows/pgs-events/event-lock"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const id = req.params.id!
  const row = await followUpById(knex, id)
  const operation = row ? unconfirmedOperationOf(row.key) : null
  if (!row || operation?.kind !== "refund" || row.kind !== "unknown_management") throw new MedusaError(MedusaError.Types.NOT_FOUND, `There is no unconfirmed refund with id ${id}`)
  const settledAlready = new MedusaError(MedusaError.Types.NOT_ALLOWED, `This refund is settled already: ${row.note ?? ""}`.trim())
  if (row.state !== "needs_person") throw settledAlready
  const refuseIfArrived = async () => {
    const arrived = row.reference ? await managementEventFor(knex, row.reference, operation.rowId) : null
    if (arrived)
      throw new MedusaError(
        MedusaError.Types.NOT_ALLOWED,
        `The gateway made this refund: its message arrived${arrived.subject_id ? ` (transaction ${arrived.subject_id})` : ""}. The next reconciliation run records it on the order; nothing was removed.`,
      )
  }
  // Refused at once when it is in already (a run of it may hold the lock below for as long as it waits for Medusa's call).
  await refuseIfArrived()
  const actor = req.auth_context?.actor_id ?? "an admin"
  const note = `${row.note ?? ""} The gateway never made it: ${actor} removed it from the order.`.trim()
  // Checked again and removed under the lock the payment's gateway events run under (pgs-events/event-lock.ts): the
  // refund's message run in between would find Medusa's row still there, take it for Medusa's own call and be done,
  // and the row removed after it would leave the gateway's refund recorded nowhere. Run after, it finds the row removed
  // and records the refund in its place. (A reference-less row names a lock no event takes.)
  const { paymentId } = await underEventLock(req.scope, row.reference ?? row.key, async () => {
    await refuseIfArrived()
    // Closed first, once: a second click, or the gateway's message settling it meanwhile, removes nothing.
    if (!(await closeOpenFollowUp(knex, row.id, { resolved_at: new Date(), note }))) throw settledAlready
    return removeOperationRow(req.scope, operation.kind, operation.rowId).catch(async (error: Error) => {
      await reopenFollowUp(knex, row.id, { closedWith: note, note: row.note })
      throw error
    })
  })
  // A canceled order's "Refund not made" item counts what the payment holds by Medusa's records: the removed refund
  // is in it again (after the lock: this takes it itself). The removal stands if this fails: the gateway's next
  // refund message for the payment brings the item up to date.
  if (paymentId)
    await settleRefundNotMadeAfterRemoval(req.scope, paymentId).catch((error: Error) =>
      req.scope.resolve("logger").error(`[pgs] refund ${operation.rowId} removed, but its order's "Refund not made" item could not be brought up to date: ${error.message}`),
    )
  res.json({ id: row.id, state: "done", removed: { kind: operation.kind, id: operation.rowId } })
}
