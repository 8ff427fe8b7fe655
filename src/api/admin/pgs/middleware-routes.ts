import type { MiddlewareRoute } from "@medusajs/framework/http"
import { listAttentionQuery, rereadBody } from "./attention/validators"
import { createPayoutBody, listPayoutsQuery } from "./payouts/validators"
import { createTerminalBody, updateTerminalBody } from "./settings/validators"
import { issuePayLinkBody } from "./orders/[id]/pay-link/validators"
import { chargeSavedCardBody } from "./orders/[id]/charge-saved-card/validators"
import { validated } from "./validate"
import { cardTestingSwitchBody } from "./settings/card-testing/validators"
import { oneOperationAtATime } from "./orders/one-operation"
import { CHANGING_METHODS, jsonBodiesOnly } from "./json-only"

/** Admin routes of the plugin. Medusa itself requires an authenticated admin user on every /admin/* route. */
export const adminPgsMiddlewares: MiddlewareRoute[] = [
  // CSRF: what changes something takes JSON only (json-only.ts), Medusa's capture and refund of our payments too.
  { methods: [...CHANGING_METHODS], matcher: "/admin/pgs*", middlewares: [jsonBodiesOnly] },
  { methods: ["POST"], matcher: "/admin/pgs/payouts", middlewares: [validated("body", createPayoutBody)] },
  { methods: ["GET"], matcher: "/admin/pgs/payouts", middlewares: [validated("query", listPayoutsQuery)] },
  { methods: ["GET"], matcher: "/admin/pgs/attention", middlewares: [validated("query", listAttentionQuery)] },
  { methods: ["POST"], matcher: "/admin/pgs/attention/reread", middlewares: [validated("body", rereadBody)] },
  { methods: ["POST"], matcher: "/admin/pgs/settings/terminals", middlewares: [validated("body", createTerminalBody)] },
  { methods: ["POST"], matcher: "/admin/pgs/settings/terminals/:id", middlewares: [validated("body", updateTerminalBody)] },
  { methods: ["POST"], matcher: "/admin/pgs/settings/card-testing", middlewares: [validated("body", cardTestingSwitchBody)] },
  // Medusa's own capture and refund routes, for PGS payments: one operation at a time, refused if the payment moved.
  { methods: ["POST"], matcher: "/admin/payments/:id/capture", middlewares: [jsonBodiesOnly, oneOperationAtATime("capture")] },
  { methods: ["POST"], matcher: "/admin/payments/:id/refund", middlewares: [jsonBodiesOnly, oneOperationAtATime("refund")] },
  { methods: ["POST"], matcher: "/admin/pgs/orders/:id/pay-link", middlewares: [validated("body", issuePayLinkBody)] },
  { methods: ["POST"], matcher: "/admin/pgs/orders/:id/charge-saved-card", middlewares: [validated("body", chargeSavedCardBody)] },
]
