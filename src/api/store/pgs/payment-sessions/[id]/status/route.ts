/**
 * GET /store/pgs/payment-sessions/:id/status
 * The storefront's return page polls this while a redirect payment awaits the gateway's decision (the webhook):
 * Medusa's session status (pending_authorization → captured/authorized, or error/canceled), the gateway status
 * and the shopper-safe failure message. Reads only; the session id is the capability, as in Medusa's own routes.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { retrievePgsSession } from "../../session-request"

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const session = await retrievePgsSession(req.scope, req.params.id)
  const data = session.data ?? {}
  res.status(200).json({
    payment_session: {
      id: session.id,
      status: session.status,
      gateway_status: data.gateway_status ?? null,
      error: data.error ?? null,
      next_action: data.next_action ?? null,
    },
  })
}
