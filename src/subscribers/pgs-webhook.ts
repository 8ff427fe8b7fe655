/**
 * Runs the gateway-event workflow for each new verified webhook delivery (emitted by /hooks/pgs/webhooks),
 * through the bounded in-process lane shared with the retry job (src/jobs/retry-pgs-webhook-events.ts).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { PGS_WEBHOOK_RECEIVED, type PgsWebhookReceivedData } from "../modules/pgs/events"
import { runRecordedEvent } from "../workflows/process-pgs-event"

export default async function pgsWebhookHandler({ event, container }: SubscriberArgs<PgsWebhookReceivedData>) {
  // Awaited: with a Redis event bus the worker takes its next event only when this one is done.
  await runRecordedEvent(container, event.data.id)
}

export const config: SubscriberConfig = { event: PGS_WEBHOOK_RECEIVED, context: { subscriberId: "pgs-webhook-handler" } }
