/**
 * POST /hooks/pgs/webhooks — the gateway's webhook endpoint inside Medusa's HTTP server. The steps (verify on the
 * raw bytes, record once, answer, then emit) live in the pgs module (webhook-intake/accept.ts), shared with the
 * dedicated receiver a store can run on its own port for high webhook volume (option `webhookReceiver`).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { PGS_MODULE } from "../../../../modules/pgs"
import type PgsModuleService from "../../../../modules/pgs/service"
import { acceptWebhookRequest } from "../../../../modules/pgs/webhook-intake/accept"
import { serverTiming } from "../../../../modules/pgs/webhook-intake/stages"

export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)
  const answer = await acceptWebhookRequest(req, pgs.webhookIntake())
  if (answer.stages) res.setHeader("server-timing", serverTiming(answer.stages))
  res.status(answer.status).json(answer.body)
  await answer.afterAnswer?.()
}
