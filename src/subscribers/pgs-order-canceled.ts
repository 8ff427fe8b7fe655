/**
 * After Medusa cancels an order: a refund its cancel asked for that did not go through goes on "Needs attention", and
 * the order's transaction for it is removed (workflows/refund-not-made.ts). Medusa only logs it (FRAMEWORK-NOTES 68).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderWorkflowEvents } from "@medusajs/framework/utils"
import { settleRefundsNotMadeOfOrder } from "../workflows/refund-not-made"

export default async function pgsOrderCanceled({ event, container }: SubscriberArgs<{ id: string }>) {
  if (!event.data?.id) return
  await settleRefundsNotMadeOfOrder(container, event.data.id).catch((error: Error) => {
    container.resolve("logger").error(`[pgs] order ${event.data.id} canceled: a refund its cancel did not get could not be listed for the admin: ${error.message}`)
    // Thrown again, for an event bus set to retry (Redis with attempts; by default it does not): a second run is safe.
    // Otherwise reconciliation lists it from the refund's failure, written down by the provider (reconcile/failed-refunds.ts).
    throw error
  })
}

export const config: SubscriberConfig = { event: OrderWorkflowEvents.CANCELED, context: { subscriberId: "pgs-order-canceled" } }
