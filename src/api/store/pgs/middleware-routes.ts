import type { MiddlewareRoute } from "@medusajs/framework/http"
import { attachTransactionBody, authenticationCompletedBody, clientInfoBody, requestAuthenticationBody } from "./payment-sessions/validators"
import { validateBody } from "./validate-body"

const SESSION = "/store/pgs/payment-sessions/:id"

export const storePgsMiddlewares: MiddlewareRoute[] = [
  { methods: ["POST"], matcher: `${SESSION}/transaction`, middlewares: [validateBody(attachTransactionBody)] },
  { methods: ["POST"], matcher: `${SESSION}/client-info`, middlewares: [validateBody(clientInfoBody)] },
  { methods: ["POST"], matcher: `${SESSION}/three-ds/request-authentication`, middlewares: [validateBody(requestAuthenticationBody)] },
  { methods: ["POST"], matcher: `${SESSION}/three-ds/authentication-completed`, middlewares: [validateBody(authenticationCompletedBody)] },
]
