/** GET /admin/pgs/attention — what needs a person, and what the plugin settled by itself (view.ts). */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { ListAttentionQuery } from "./validators"
import { attentionList } from "./view"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const knex = req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  res.json(await attentionList(req.scope, knex, req.validatedQuery as unknown as ListAttentionQuery))
}
