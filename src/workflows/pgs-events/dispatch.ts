/**
 * One handler per event kind; pending and declined management events are recorded only. Transaction events about
 * our payouts go to the payout handler first: their references are not payment sessions'.
 */
import type { WebhookEvent } from "../../gateway"
import { TOKENIZATION_EVENT } from "../../gateway"
import { kindOf } from "./classify"
import type { EventContext, EventOutcome } from "./context"
import { handleApproval } from "./approval"
import { handleFailure } from "./failure"
import { handleManagement } from "./management"
import { handleTokenization } from "./tokenization"
import { handlePayoutEvent } from "./payout"

/** `receivedAt`: when the store recorded the delivery; `eventId`: its id in the event log. */
export async function dispatchEvent(ctx: EventContext, event: WebhookEvent, receivedAt: Date, eventId: string): Promise<EventOutcome> {
  if (event.event === TOKENIZATION_EVENT) return handleTokenization(ctx, event.payload)
  const kind = kindOf(event)
  if (kind === "approval" || kind === "failure" || kind === "pending") {
    const payout = await handlePayoutEvent(ctx, event.payload)
    if (payout) return payout
  }
  switch (kind) {
    case "approval":
      return handleApproval(ctx, event.payload)
    case "failure":
      return handleFailure(ctx, event.payload, eventId)
    case "management_approved":
      return handleManagement(ctx, event.event, event.payload, receivedAt)
    case "management_declined":
      return "ignored:management_declined"
    case "pending":
      return "ignored:pending"
    case "tokenization":
      return "ignored:unreachable"
  }
}
