/**
 * The logged-in customer, when there is one (a guest passes): one middleware, so a route whose lists both name it
 * (card-testing/middleware-routes.ts runs before store/pgs/middleware-routes.ts) authenticates once.
 */
import { authenticate } from "@medusajs/framework/http"

export const maybeCustomer = authenticate("customer", ["session", "bearer"], { allowUnauthenticated: true })
