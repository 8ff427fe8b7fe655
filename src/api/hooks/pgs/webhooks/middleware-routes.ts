import type { MiddlewareRoute } from "@medusajs/framework/http"

/**
 * No body parser: the route reads the exact bytes itself. Medusa's `preserveRawBody` keeps bytes only when the
 * content type matches a parser, and a body that is not JSON is answered 400 by the parser before any route
 * runs — a forged delivery must get the gateway's 401, decided on the raw bytes alone.
 */
export const webhookMiddlewares: MiddlewareRoute[] = [
  { matcher: "/hooks/pgs/webhooks", methods: ["POST"], bodyParser: false },
]
