/**
 * POST /hooks/pgs/webhooks — the gateway's webhook endpoint.
 * Order matters: verify JWT + digest on the raw bytes (401, nothing recorded) → record once in the event log
 * (a duplicate is answered 200 and dropped; never a 2xx before the row is committed) → answer 200 → emit our own
 * event. Processing runs in the subscriber, a few events at a time, so the answer does not wait for it; an event
 * whose emit is lost is picked up by the retry job (src/jobs) after its grace period.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { WebhookVerificationError, type WebhookEvent } from "../../../../gateway"
import { PGS_MODULE } from "../../../../modules/pgs"
import { PGS_WEBHOOK_RECEIVED, type PgsWebhookReceivedData } from "../../../../modules/pgs/events"
import type PgsModuleService from "../../../../modules/pgs/service"
import { BodyTooLargeError, readRawBody } from "./raw-body"
import { describeUnsupported, describeVerified } from "./delivery"
import { recordDelivery } from "./recorder"

const MAX_BODY_BYTES = 1024 * 1024

export const POST = async (req: MedusaRequest, res: MedusaResponse) => {
  const logger = req.scope.resolve(ContainerRegistrationKeys.LOGGER)
  const pgs = req.scope.resolve<PgsModuleService>(PGS_MODULE)

  let raw: Buffer
  try {
    raw = await readRawBody(req, MAX_BODY_BYTES)
  } catch (error) {
    if (error instanceof BodyTooLargeError) return void res.status(413).json({ error: error.message })
    throw error
  }

  let verifier
  try {
    verifier = pgs.gateway().webhooks
  } catch (error) {
    // Misconfigured store: 5xx so the gateway keeps retrying until the key is set.
    logger.error(`PGS webhook received but verification is not configured: ${(error as Error).message}`)
    return void res.status(503).json({ error: "Webhook verification is not configured" })
  }

  let event: WebhookEvent | null = null
  try {
    event = (await verifier.verify(raw, req.headers.authorization)).event
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error
    // Signed and digest-checked, but not an event we know: record it and answer 200 so it is not retried forever.
    if (error.reason !== "invalid_payload") {
      logger.warn(`PGS webhook rejected (${error.reason})`)
      return void res.status(401).json({ error: error.message })
    }
  }

  const entry = event ? describeVerified(raw, event) : describeUnsupported(raw)
  const recorded = await recordDelivery(req.scope.resolve(ContainerRegistrationKeys.PG_CONNECTION), entry)
  if (!recorded.is_new) return void res.status(200).json({ received: true, duplicate: true })

  if (!event) {
    await pgs.updatePgsWebhookEvents({ id: recorded.id, processed_at: new Date(), outcome: "unsupported" })
    return void res.status(200).json({ received: true })
  }

  const eventBus = req.scope.resolve(Modules.EVENT_BUS)
  res.status(200).json({ received: true })
  const data: PgsWebhookReceivedData = { id: recorded.id }
  try {
    await eventBus.emit({ name: PGS_WEBHOOK_RECEIVED, data })
  } catch (error) {
    logger.warn(`PGS webhook event ${recorded.id} recorded but not emitted (the retry job will run it): ${(error as Error).message}`)
  }
}
