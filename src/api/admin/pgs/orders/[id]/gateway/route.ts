/**
 * GET /admin/pgs/orders/:id/gateway — the gateway transaction(s) behind the order's PGS payments: what Medusa
 * recorded, the gateway's status endpoint, and the webhook timeline. 404 for an unknown order.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { orderGatewayView } from "../../gateway-view"

export async function GET(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  res.json(await orderGatewayView(req.scope, req.params.id))
}
