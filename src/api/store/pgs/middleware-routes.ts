import type { MiddlewareRoute } from "@medusajs/framework/http"
import { applyBody, cartSessionBody, collectionSessionBody } from "./payment-collections/validators"
import { attachTransactionBody, authenticationCompletedBody, clientInfoBody, completionBody, requestAuthenticationBody } from "./payment-sessions/validators"
import { attachOnCompletion } from "./payment-sessions/attach-on-completion"
import { validated } from "../../admin/pgs/validate"
import { validateBody } from "./validate-body"
import { maybeCustomer } from "../../maybe-customer"

const SESSION = "/store/pgs/payment-sessions/:id"
const COLLECTION = "/store/pgs/payment-collections/:id"

/**
 * A logged-in customer who owns the cart or order gets their saved cards; anyone with the link may pay. The two
 * session-making routes are authenticated by the card-testing guard's list, which runs first (api/middlewares.ts).
 */
export const storePgsMiddlewares: MiddlewareRoute[] = [
  { methods: ["GET"], matcher: "/store/pgs/payment-methods", middlewares: [maybeCustomer] },
  { methods: ["POST"], matcher: `${SESSION}/transaction`, middlewares: [validateBody(attachTransactionBody)] },
  { methods: ["POST"], matcher: `${SESSION}/client-info`, middlewares: [validateBody(clientInfoBody)] },
  { methods: ["POST"], matcher: `${SESSION}/three-ds/request-authentication`, middlewares: [validateBody(requestAuthenticationBody)] },
  { methods: ["POST"], matcher: `${SESSION}/three-ds/authentication-completed`, middlewares: [validateBody(authenticationCompletedBody)] },
  // The widget's payment step: the cart's collection and session in one call; its Pay: attach and complete in one.
  { methods: ["POST"], matcher: "/store/pgs/carts/:id/payment-sessions", middlewares: [validateBody(cartSessionBody)] },
  { methods: ["POST"], matcher: "/store/carts/:id/complete", middlewares: [validated("body", completionBody), attachOnCompletion] },
  { methods: ["GET"], matcher: COLLECTION, middlewares: [maybeCustomer] },
  { methods: ["POST"], matcher: `${COLLECTION}/payment-sessions`, middlewares: [validateBody(collectionSessionBody)] },
  { methods: ["POST"], matcher: `${COLLECTION}/apply`, middlewares: [maybeCustomer, validateBody(applyBody)] },
]
