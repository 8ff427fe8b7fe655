/**
 * GET /admin/pgs/settings/connection — the gateway connection as configured (medusa-config / PGS_* variables):
 * URLs, realm and ids in full, the client secret and client key masked ("••••••ab12"), PEM keys only as
 * "configured"; plus the catalogue of values a terminal setting may take, and the plugin's version (CHANGELOG.md).
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PGS_MODULE } from "../../../../../modules/pgs"
import { connectionView } from "../../../../../modules/pgs/admin-queries"
import type PgsModuleService from "../../../../../modules/pgs/service"
import { catalog } from "../catalog"
import { PACKAGE_VERSION } from "../../../../../gateway"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  res.json({ connection: connectionView(pgs), catalog, plugin_version: PACKAGE_VERSION })
}
