/**
 * GET  /admin/pgs/payouts?limit&cursor&status&reference — newest first, in keyset pages: { payouts, next_cursor, limit }
 * POST /admin/pgs/payouts — send a payout to a bank account or a card (body: validators.ts, createPayoutBody).
 *   201 { payout, repeated: false } new; 200 { payout, repeated } the reference was known (final: returned as is,
 *   repeated; unfinished: sent again, not repeated, or read, repeated); 400 { errors: [{field, message}] } invalid;
 *   409 { errors } the reference names another payout; 503 the gateway settings are incomplete.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../../../../modules/pgs"
import { PgsNotConfiguredError } from "../../../../modules/pgs/gateway"
import type PgsModuleService from "../../../../modules/pgs/service"
import { createPgsPayoutWorkflow } from "../../../../workflows/create-pgs-payout"
import { PayoutRequestError, preparePayout } from "../../../../workflows/payouts/prepare"
import { invalidData } from "../validate"
import type { CreatePayoutBody, ListPayoutsQuery } from "./validators"
import { payoutPage } from "./page"
import { payoutView } from "./view"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const query = req.validatedQuery as unknown as ListPayoutsQuery
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const page = await payoutPage(req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION), query)
  const rows = page.ids.length ? await pgs.listPgsPayouts({ id: page.ids }) : []
  const byId = new Map(rows.map((p) => [p.id, p]))
  const payouts = page.ids.flatMap((id) => (byId.has(id) ? [payoutView(byId.get(id)!)] : []))
  res.json({ payouts, next_cursor: page.next_cursor, limit: query.limit })
}

export async function POST(req: AuthenticatedMedusaRequest<CreatePayoutBody>, res: MedusaResponse) {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  let prepared
  try {
    // Card fields are encrypted and the beneficiary sealed here: the workflow never sees a full number.
    prepared = preparePayout(pgs, req.validatedBody, req.auth_context?.actor_id ?? null)
  } catch (error) {
    if (error instanceof PayoutRequestError) res.status(400).json(invalidData(error.fields))
    else if (error instanceof PgsNotConfiguredError) res.status(503).json({ type: "not_configured", message: error.message })
    else throw error
    return
  }
  const { result } = await createPgsPayoutWorkflow(req.scope).run({ input: prepared })
  if (result.conflicts.length) {
    // Answered here: Medusa's error handler replaces every CONFLICT message with a generic one.
    res.status(409).json({
      type: "conflict",
      message: `Reference ${prepared.reference} is already used by payout ${result.payout.id}: ${result.conflicts.filter((c) => c.field !== "reference").map((c) => c.field).join(", ")} differ`,
      errors: result.conflicts,
    })
    return
  }
  // `repeated`: the reference was known with the same details and nothing went to the gateway this time (an earlier
  // sending that never got through is sent now: not a repeat).
  res.status(result.is_new ? 201 : 200).json({ payout: payoutView(result.payout), repeated: !result.is_new && !result.sent })
}
