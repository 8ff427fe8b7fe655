/**
 * After Medusa cancels an order: money its PGS payments still hold, because Medusa's refund at the cancel did not go
 * through, goes on "Needs attention" (payments/refund-not-made.ts). Medusa only logs that failure (FRAMEWORK-NOTES 68).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderWorkflowEvents } from "@medusajs/framework/utils"
import { listRefundsNotMade } from "../payments/refund-not-made"

export default async function pgsOrderCanceled({ event, container }: SubscriberArgs<{ id: string }>) {
  if (!event.data?.id) return
  // Never throws: the event bus must not run it again for an error of ours; the log says what went wrong.
  await listRefundsNotMade(container, event.data.id).catch((error: Error) =>
    container.resolve("logger").warn(`[pgs] order ${event.data.id} canceled: the money its payments kept could not be listed for the admin: ${error.message}`),
  )
}

export const config: SubscriberConfig = { event: OrderWorkflowEvents.CANCELED, context: { subscriberId: "pgs-order-canceled" } }
