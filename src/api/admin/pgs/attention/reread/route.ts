/**
 * POST /admin/pgs/attention/reread {transaction_id} — "Re-read from gateway": reads the transaction's status now
 * and applies a final one through the webhook path, as reconciliation does. Only a transaction the plugin already
 * knows (in its event log or follow-ups) is read: the id comes from the dashboard, not from a shopper, but it is
 * still checked. A transaction whose event was already applied or flagged is only read, not applied again: that
 * would repeat the flag, or record a "reconciliation" saying its webhook had not come.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import { followUpByKey, openFollowUp, updateFollowUp } from "../../../../../modules/pgs/follow-ups"
import { FOLLOW_UP_TABLE, WEBHOOK_EVENT_TABLE } from "../../../../../modules/pgs/models"
import { checkDeps } from "../../../../../workflows/reconcile"
import { checkTransaction } from "../../../../../workflows/reconcile/check"
import { outcomeKind } from "../../../../../workflows/pgs-events/context"
import type { CheckDeps, CheckResult } from "../../../../../workflows/reconcile/check"
import type { RereadBody } from "../validators"

/** What the re-read did, for the toast: the check's own sentence says what changed; the rest is said here. */
function sentence(result: CheckResult, status: string | null, note: string | null): string {
  switch (result) {
    case "applied":
      return note ?? `The gateway says ${status}: recorded here.`
    case "settled":
      return `The gateway says ${status}; this store already has it, nothing changed.`
    case "still_pending":
      return `The gateway says ${status ?? "it does not know the transaction yet"}: not final yet. Reconciliation keeps reading it.`
    case "unreadable":
      return "The gateway could not be read just now (or applying its answer failed); reconciliation tries again shortly."
    case "skipped":
      return "This transaction is being read already; look again in a moment."
  }
}

/** The outcome of an event about the transaction that was applied or flagged already, if any. */
async function decidedOutcome(knex: CheckDeps["knex"], transactionId: string): Promise<string | null> {
  const row = await knex(WEBHOOK_EVENT_TABLE)
    .where({ subject_id: transactionId })
    .whereNotNull("processed_at")
    .where((q) => q.where("outcome", "like", "applied:%").orWhere("outcome", "like", "attention:%"))
    .first("outcome")
  return row?.outcome ?? null
}

/** Only reads the status: what this store did with the transaction stands. */
async function readOnly(deps: CheckDeps, transactionId: string, decided: string) {
  let status: string | null
  try {
    status = (await deps.client.status.transaction(transactionId))?.transaction.status ?? null
  } catch {
    return { transaction_id: transactionId, result: "unreadable", gateway_status: null, sentence: sentence("unreadable", null, null) }
  }
  const flagged = outcomeKind(decided) === "attention"
  return {
    transaction_id: transactionId,
    result: "settled",
    gateway_status: status,
    sentence: flagged ? `The gateway says ${status}; no order keeps this money: refund it at the gateway.` : sentence("settled", status, null),
  }
}

export async function POST(req: AuthenticatedMedusaRequest<RereadBody>, res: MedusaResponse) {
  const { transaction_id } = req.validatedBody
  const deps = checkDeps(req.scope)
  const known = (await deps.knex(WEBHOOK_EVENT_TABLE).where({ subject_id: transaction_id }).first("reference")) ?? (await deps.knex(FOLLOW_UP_TABLE).where({ transaction_id }).first("reference"))
  if (!known) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Transaction ${transaction_id} is not one this store has heard of`)
  const decided = await decidedOutcome(deps.knex, transaction_id)
  if (decided) {
    res.json(await readOnly(deps, transaction_id, decided))
    return
  }
  const now = new Date()
  const { row } = await openFollowUp(deps.knex, { key: `check:${transaction_id}`, kind: "check", transaction_id, reference: known.reference ?? null, next_check_at: now })
  // Read it now even when it was settled or is waiting for its backoff.
  await updateFollowUp(deps.knex, row.id, { state: "watching", next_check_at: now })
  const result = await checkTransaction(deps, row.id, now)
  const after = await followUpByKey(deps.knex, `check:${transaction_id}`)
  const status = after?.last_status ?? null

  req.scope.resolve(ContainerRegistrationKeys.LOGGER).info(`PGS: transaction ${transaction_id} re-read from the gateway by an admin: ${result}`)
  res.json({ transaction_id, result, gateway_status: status, sentence: sentence(result, status, result === "applied" ? (after?.note ?? null) : null) })
}
