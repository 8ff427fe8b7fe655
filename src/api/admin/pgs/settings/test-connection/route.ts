/**
 * POST /admin/pgs/settings/test-connection — fetches a fresh token from the identity provider and reports
 * { ok, realm, latency_ms } or { ok: false, realm, latency_ms, error } (200 either way: the test itself worked).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PGS_MODULE } from "../../../../../modules/pgs"
import { testConnection } from "../../../../../modules/pgs/admin-queries"
import type PgsModuleService from "../../../../../modules/pgs/service"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  res.json({ connection_test: await testConnection(pgs) })
}
