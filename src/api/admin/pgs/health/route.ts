/**
 * GET /admin/pgs/health — what the Payment gateway pages' banner shows: whether the gateway accepts the store's
 * credentials (a token request, at most once a minute per process) and whether its webhooks are being refused for
 * their signature (count and last time, until a delivery verifies again), and whether the card-testing guard is refusing
 * clients (until a person marks its item handled). Names variables, never their values.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../../../../modules/pgs"
import { followUpByKey } from "../../../../modules/pgs/follow-ups"
import type PgsModuleService from "../../../../modules/pgs/service"
import { REFUSED_KEY } from "../../../../modules/pgs/webhook-intake/refusals"
import { CARD_TESTING_KEY } from "../../../../payments/card-testing/alert"
import { currentLockdown } from "../../../../payments/card-testing/lockdown"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const [credentials, refused, cardTesting, lockdown] = await Promise.all([
    pgs.credentialsStatus(),
    followUpByKey(knex, REFUSED_KEY),
    followUpByKey(knex, CARD_TESTING_KEY),
    currentLockdown(knex),
  ])
  res.json({
    credentials,
    webhooks_refused:
      refused && refused.state === "needs_person"
        ? { count: refused.checks, since: new Date(refused.created_at).toISOString(), last_at: new Date(refused.updated_at).toISOString() }
        : null,
    // Open until a person marks the "Card testing suspected" item handled; `refused` counts requests the guard refused.
    card_testing:
      cardTesting && cardTesting.state === "needs_person"
        ? { refused: cardTesting.checks, since: new Date(cardTesting.created_at).toISOString(), last_at: new Date(cardTesting.updated_at).toISOString(), lockdown }
        : null,
  })
}
