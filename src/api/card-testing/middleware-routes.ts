/**
 * Every store route by which a client can cause a gateway session or an authorization, guarded (middleware.ts).
 * Matched by Express as it routes (any case, a trailing slash), so a spelling cannot pass beside the guard.
 */
import type { MiddlewareRoute } from "@medusajs/framework/http"
import { cardTestingGuard } from "./middleware"
// The switch for a store under attack asks whether the shopper is logged in; the routes after it read the same.
import { maybeCustomer } from "../maybe-customer"
const SESSION = "/store/pgs/payment-sessions/:id"

export const cardTestingMiddlewares: MiddlewareRoute[] = [
  // Medusa's own: a new payment session (a gateway session for every method), and cart completion (authorize).
  { methods: ["POST"], matcher: "/store/payment-collections/:id/payment-sessions", middlewares: [maybeCustomer, cardTestingGuard({ id: "collection", newSession: true, lockdown: true })] },
  { methods: ["POST"], matcher: "/store/carts/:id/complete", middlewares: [cardTestingGuard({ id: "cart", newSession: false })] },
  // The plugin's one call for a cart's collection and session (what the two Medusa calls above and before it do).
  { methods: ["POST"], matcher: "/store/pgs/carts/:id/payment-sessions", middlewares: [maybeCustomer, cardTestingGuard({ id: "cart", newSession: true, lockdown: true })] },
  // The plugin's: an order's collection paid from the storefront, the 3-D Secure steps, the widget's transaction and client info.
  { methods: ["POST"], matcher: "/store/pgs/payment-collections/:id/payment-sessions", middlewares: [maybeCustomer, cardTestingGuard({ id: "collection", newSession: true, lockdown: true })] },
  { methods: ["POST"], matcher: "/store/pgs/payment-collections/:id/apply", middlewares: [cardTestingGuard({ id: "collection", newSession: false })] },
  ...["transaction", "client-info", "three-ds/request-authentication", "three-ds/authentication-completed"].map(
    (step): MiddlewareRoute => ({ methods: ["POST"], matcher: `${SESSION}/${step}`, middlewares: [cardTestingGuard({ id: "session", newSession: false })] }),
  ),
  // The 3-D Secure notification the ACS page posts from the shopper's browser (the plugin then asks the gateway).
  { methods: ["POST"], matcher: "/hooks/pgs/three-ds/notification", middlewares: [cardTestingGuard({ id: "address", newSession: false, page: true })] },
  // The pay link opens a hosted-page session at the gateway (the same one again while it lasts, so a visit is an attempt).
  { methods: ["GET"], matcher: "/pgs/pay/:id", middlewares: [cardTestingGuard({ id: "collection", newSession: false, page: true })] },
]
