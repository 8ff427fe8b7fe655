import { authenticate, type MiddlewareRoute } from "@medusajs/framework/http"

/** Saved cards belong to a logged-in customer (session cookie or bearer token). */
export const savedCardMiddlewares: MiddlewareRoute[] = [
  { matcher: "/store/pgs/saved-cards*", middlewares: [authenticate("customer", ["session", "bearer"])] },
]
