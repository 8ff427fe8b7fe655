/** Runs the gateway-event workflow for each new verified webhook delivery (emitted by /hooks/pgs/webhooks). */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PGS_WEBHOOK_RECEIVED, type PgsWebhookReceivedData } from "../modules/pgs/events"
import { processPgsEventWorkflow } from "../workflows/process-pgs-event"

export default async function pgsWebhookHandler({ event, container }: SubscriberArgs<PgsWebhookReceivedData>) {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  const { errors } = await processPgsEventWorkflow(container).run({ input: { id: event.data.id }, throwOnError: false })
  // The error is kept on the event log row too (outcome "error"); nothing here is retried by the gateway.
  for (const e of errors) logger.error(`PGS webhook event ${event.data.id} failed: ${e.error?.message ?? e.error}`)
}

export const config: SubscriberConfig = { event: PGS_WEBHOOK_RECEIVED, context: { subscriberId: "pgs-webhook-handler" } }
