/** GET /admin/pgs/payouts/:id — { payout }, or 404. */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../../../../../modules/pgs"
import type PgsModuleService from "../../../../../modules/pgs/service"
import { payoutView } from "../view"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const [payout] = await pgs.listPgsPayouts({ id: req.params.id }, { take: 1 })
  if (!payout) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payout ${req.params.id} was not found`)
  res.json({ payout: payoutView(payout) })
}
