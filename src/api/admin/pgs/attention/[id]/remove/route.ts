/**
 * POST /admin/pgs/attention/:id/remove — for a capture or refund on Needs attention as never confirmed by the
 * gateway (its server stopped mid-call: reconcile/unfinished-operations.ts), a person who checked the gateway's
 * dashboard and found nothing removes Medusa's row from the order: a capture can then be made again from Medusa,
 * and a refund no longer shows money the customer never received. Should the gateway's message for it arrive after
 * all, it is recorded in the row's place (pgs-events/management.ts), so nothing is lost by being wrong.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { closeOpenFollowUp, followUpById, updateFollowUp } from "../../../../../../modules/pgs/follow-ups"
import { unconfirmedOperationOf } from "../../../../../../payments/lost-answers"
import { removeOperationRow } from "../../../../../../workflows/medusa-operation-rows"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const id = req.params.id!
  const row = await followUpById(knex, id)
  const operation = row ? unconfirmedOperationOf(row.key) : null
  if (!row || !operation || row.kind !== "unknown_management") throw new MedusaError(MedusaError.Types.NOT_FOUND, `There is no unconfirmed capture or refund with id ${id}`)
  const actor = req.auth_context?.actor_id ?? "an admin"
  const note = `${row.note ?? ""} The gateway never made it: ${actor} removed it from the order.`.trim()
  // Closed first, once: a second click, or the gateway's message settling it meanwhile, removes nothing.
  if (!(await closeOpenFollowUp(knex, row.id, { resolved_at: new Date(), note })))
    throw new MedusaError(MedusaError.Types.NOT_ALLOWED, `This ${operation.kind} is settled already: ${row.note ?? ""}`.trim())
  await removeOperationRow(req.scope, operation.kind, operation.rowId).catch(async (error: Error) => {
    await updateFollowUp(knex, row.id, { state: "needs_person", resolved_at: null, note: row.note })
    throw error
  })
  res.json({ id: row.id, state: "done", removed: { kind: operation.kind, id: operation.rowId } })
}
