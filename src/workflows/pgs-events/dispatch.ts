/** One handler per event kind; pending and declined management events are recorded only. */
import type { WebhookEvent } from "../../gateway"
import { TOKENIZATION_EVENT } from "../../gateway"
import { kindOf } from "./classify"
import type { EventContext, EventOutcome } from "./context"
import { handleApproval } from "./approval"
import { handleFailure } from "./failure"
import { handleManagement } from "./management"
import { handleTokenization } from "./tokenization"

export async function dispatchEvent(ctx: EventContext, event: WebhookEvent): Promise<EventOutcome> {
  if (event.event === TOKENIZATION_EVENT) return handleTokenization(ctx, event.payload)
  switch (kindOf(event)) {
    case "approval":
      return handleApproval(ctx, event.payload)
    case "failure":
      return handleFailure(ctx, event.payload)
    case "management_approved":
      return handleManagement(ctx, event.event, event.payload)
    case "management_declined":
      return "ignored:management_declined"
    case "pending":
      return "ignored:pending"
    case "tokenization":
      return "ignored:unreachable"
  }
}
