/**
 * POST /admin/pgs/attention/:id/resolve — a person handled it (e.g. refunded at the gateway): it leaves the open list.
 * A follow-up is marked done; a flagged or failed event keeps its story, its outcome prefixed "handled:" (and the
 * retry job leaves it alone).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { followUpById, updateFollowUp } from "../../../../../../modules/pgs/follow-ups"
import { WEBHOOK_EVENT_TABLE } from "../../../../../../modules/pgs/models"
import { eventNeedsAPerson } from "../../../../../../modules/pgs/admin-queries"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const id = req.params.id!
  const actor = req.auth_context?.actor_id ?? "an admin"
  const row = await followUpById(knex, id)
  if (row) {
    await updateFollowUp(knex, row.id, { state: "done", resolved_at: new Date(), note: `${row.note ?? ""} Marked as handled by ${actor}.`.trim() })
    res.json({ id: row.id, state: "done" })
    return
  }
  const now = new Date()
  const handled = await knex(WEBHOOK_EVENT_TABLE)
    .where({ id })
    .whereNull("deleted_at")
    .andWhere(eventNeedsAPerson)
    .update({ outcome: knex.raw("'handled:' || replace(outcome, 'attention:', '')"), processed_at: knex.raw("coalesce(processed_at, ?)", [now]), next_attempt_at: null, updated_at: now })
  if (!handled) throw new MedusaError(MedusaError.Types.NOT_FOUND, `There is nothing open with id ${id}`)
  res.json({ id, state: "done" })
}
