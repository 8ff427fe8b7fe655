/**
 * GET /store/pgs/payment-sessions/:id/status
 * The storefront's return page polls this while a redirect payment awaits the gateway's decision (the webhook):
 * Medusa's session status (pending_authorization → captured/authorized, or error/canceled), the gateway status
 * and the shopper-safe failure message. Reads only; the session id is the capability, as in Medusa's own routes.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { MedusaError, Modules } from "@medusajs/framework/utils"
import { isPgsProviderId } from "../../../../../../providers/pgs/session-data"

type PaymentModule = {
  retrievePaymentSession(id: string, config: { select: string[] }): Promise<{ id: string; provider_id: string; status: string; data: Record<string, unknown> | null }>
}

export async function GET(req: MedusaRequest, res: MedusaResponse) {
  const payment = req.scope.resolve<PaymentModule>(Modules.PAYMENT)
  const session = await payment.retrievePaymentSession(req.params.id, { select: ["id", "provider_id", "status", "data"] }).catch((error: unknown) => {
    if (error instanceof MedusaError && error.type === MedusaError.Types.NOT_FOUND)
      throw new MedusaError(MedusaError.Types.NOT_FOUND, `Payment session ${req.params.id} was not found`)
    throw error
  })
  if (!isPgsProviderId(session.provider_id))
    throw new MedusaError(MedusaError.Types.INVALID_DATA, `Payment session ${session.id} is not a PGS payment (provider ${session.provider_id})`)
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
