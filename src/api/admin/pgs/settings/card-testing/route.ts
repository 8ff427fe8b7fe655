/**
 * GET /admin/pgs/settings/card-testing — the card-testing guard's thresholds (options, PGS_CARD_TESTING_*) and the
 * switch for a store under attack while it is on. POST {mode: "logged_in_only", hours} turns it on: for that long,
 * new card sessions are for logged-in customers only (others get 403 with words); {mode: "off"} turns it off.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { z } from "zod"
import { PGS_MODULE } from "../../../../../modules/pgs"
import type PgsModuleService from "../../../../../modules/pgs/service"
import { currentLockdown, endLockdown, setLockdown } from "../../../../../payments/card-testing/lockdown"
import type { cardTestingSwitchBody } from "./validators"

async function view(req: AuthenticatedMedusaRequest) {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const { options } = req.scope.resolve<PgsModuleService>(PGS_MODULE).cardTestingSettings()
  return { card_testing: { thresholds: options, lockdown: await currentLockdown(knex) } }
}

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  res.json(await view(req))
}

export async function POST(req: AuthenticatedMedusaRequest<z.infer<typeof cardTestingSwitchBody>>, res: MedusaResponse) {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const body = req.body
  if (body.mode === "off") await endLockdown(knex)
  else await setLockdown(knex, { mode: body.mode, hours: body.hours!, setBy: req.auth_context?.actor_id ?? null })
  res.json(await view(req))
}
