/**
 * Capture on fulfillment (option captureOnFulfillment): on Medusa's order.fulfillment_created, capture what the
 * fulfilled items cost (workflows/capture-on-fulfillment.ts). Fulfillment creation, not shipment: Medusa's
 * "mark as shipped" is optional (a shop that hands parcels over without tracking never marks it), so a capture
 * waiting for it could wait until the authorization expires; a fulfillment is created for every parcel.
 */
import type { SubscriberArgs, SubscriberConfig } from "@medusajs/framework"
import { OrderWorkflowEvents } from "@medusajs/framework/utils"
import { captureOnFulfillment } from "../workflows/capture-on-fulfillment"

type FulfillmentCreated = { order_id: string; fulfillment_id: string }

export default async function pgsCaptureOnFulfillment({ event, container }: SubscriberArgs<FulfillmentCreated>) {
  if (!event.data?.order_id || !event.data?.fulfillment_id) return
  // Never throws: a failure is on "Needs attention", and the event bus must not run it again.
  await captureOnFulfillment(container, { order_id: event.data.order_id, fulfillment_id: event.data.fulfillment_id }).catch((error: Error) =>
    container.resolve("logger").warn(`[pgs] capture on fulfillment ${event.data.fulfillment_id}: ${error.message}`),
  )
}

export const config: SubscriberConfig = { event: OrderWorkflowEvents.FULFILLMENT_CREATED, context: { subscriberId: "pgs-capture-on-fulfillment" } }
