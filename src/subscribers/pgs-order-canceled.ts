/**
 * After Medusa cancels an order: a refund its cancel asked for that did not go through goes on "Needs attention", and
 * the order's transaction for it is removed (workflows/refund-not-made.ts). Medusa only logs it (FRAMEWORK-NOTES 68).
 * Part of a card authorization a capture took from, which the gateway cannot release, goes there too
 * (workflows/held-after-cancel.ts).
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderWorkflowEvents } from "@medusajs/framework/utils"
import { listHeldAfterCancel } from "../workflows/held-after-cancel"
import { settleRefundsNotMadeOfOrder } from "../workflows/refund-not-made"

export default async function pgsOrderCanceled({ event, container }: SubscriberArgs<{ id: string }>) {
  if (!event.data?.id) return
  const logger = container.resolve("logger")
  const held = listHeldAfterCancel(container, event.data.id).catch((error: Error) =>
    logger.error(`[pgs] order ${event.data.id} canceled: the part of its authorization still held could not be listed for the admin: ${error.message}`),
  )
  await settleRefundsNotMadeOfOrder(container, event.data.id)
    .catch((error: Error) => {
      logger.error(`[pgs] order ${event.data.id} canceled: a refund its cancel did not get could not be listed for the admin: ${error.message}`)
      // Thrown again, for an event bus set to retry (Redis with attempts; by default it does not): a second run is safe.
      // Otherwise reconciliation lists it from the refund's failure, written down by the provider (reconcile/failed-refunds.ts).
      throw error
    })
    .finally(() => held)
}

export const config: SubscriberConfig = { event: OrderWorkflowEvents.CANCELED, context: { subscriberId: "pgs-order-canceled" } }
