/**
 * POST /admin/pgs/events/:id/process — "Process again": runs a recorded gateway event once more, through the same
 * workflow as on arrival (its handlers are idempotent and never move a payment backwards). For an event that
 * failed after its retries, or was flagged, once its cause is fixed.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { WEBHOOK_EVENT_TABLE } from "../../../../../../modules/pgs/models"
import { fromStorableText } from "../../../../../../modules/pgs/storable"
import { runRecordedEvent } from "../../../../../../workflows/process-pgs-event"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const id = req.params.id!
  const row = await knex(WEBHOOK_EVENT_TABLE).where({ id }).whereNull("deleted_at").first("id", "outcome")
  if (!row) throw new MedusaError(MedusaError.Types.NOT_FOUND, `There is no gateway event ${id}`)
  // A fresh start: the attempts counter too, so a failure is retried by the job again.
  await knex(WEBHOOK_EVENT_TABLE).where({ id }).update({ processed_at: null, outcome: null, error: null, attempts: 0, next_attempt_at: null, updated_at: new Date() })
  await runRecordedEvent(req.scope, id)
  const after = await knex(WEBHOOK_EVENT_TABLE).where({ id }).first("outcome", "error", "processed_at")
  res.json({ id, previous_outcome: row.outcome ? fromStorableText(row.outcome) : null, outcome: after?.outcome ? fromStorableText(after.outcome) : null, error: after?.error ?? null })
}
