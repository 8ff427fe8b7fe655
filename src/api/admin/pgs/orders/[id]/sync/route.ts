/**
 * POST /admin/pgs/orders/:id/sync — reads every PGS transaction of the order from the gateway's status endpoint
 * again and answers the same view as GET …/gateway, with `in_sync` per payment. It changes nothing in Medusa:
 * the gateway's webhooks (retried by the gateway and by our retry job) are what move a payment, so a read from the
 * dashboard can never race them or move a payment backwards.
 */
import type { AuthenticatedMedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { orderGatewayView } from "../../gateway-view"

export async function POST(req: AuthenticatedMedusaRequest, res: MedusaResponse) {
  res.json({ ...(await orderGatewayView(req.scope, req.params.id)), synced: true })
}
