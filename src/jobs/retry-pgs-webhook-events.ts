/**
 * Every minute: run again the recorded webhook events that have no final outcome — failed ones whose backoff has
 * passed (up to 6 attempts, 1 min doubling), and ones never started within 2 minutes of arrival (the process
 * stopped before its subscriber ran). Policy: src/modules/pgs/webhook-queue.ts.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { dueWebhookEventIds } from "../modules/pgs/webhook-queue"
import { runRecordedEvent } from "../workflows/process-pgs-event"

export default async function retryPgsWebhookEvents(container: MedusaContainer, context?: { scheduledFor: Date }) {
  const knex = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  // The time Medusa scheduled this run for is "now" (a test passes a later time instead of waiting for it).
  const ids = await dueWebhookEventIds(knex, context?.scheduledFor ?? new Date())
  // One at a time, oldest first: events of one payment are retried in the order they arrived.
  for (const id of ids) await runRecordedEvent(container, id)
  return { due: ids.length }
}

export const config = { name: "pgs-retry-webhook-events", schedule: "* * * * *" }
