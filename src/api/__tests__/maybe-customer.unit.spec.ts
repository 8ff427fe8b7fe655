/**
 * The store routes that read the logged-in customer authenticate once per request: the card-testing guard's list
 * and ours both apply to a route (api/middlewares.ts), and a second authenticate reads the session or token again.
 */
import type { MiddlewareRoute } from "@medusajs/framework/http"
import { cardTestingMiddlewares } from "../card-testing/middleware-routes"
import { storePgsMiddlewares } from "../store/pgs/middleware-routes"
import { maybeCustomer } from "../maybe-customer"

/** An authenticate middleware like ours, however made (authenticate() returns a new function each call). */
const isMaybeCustomer = (m: unknown) => typeof m === "function" && String(m) === String(maybeCustomer)

const authenticationsOf = (method: string, matcher: string) =>
  [...cardTestingMiddlewares, ...storePgsMiddlewares]
    .filter((r: MiddlewareRoute) => r.matcher === matcher && (r.methods as string[] | undefined)?.includes(method))
    .flatMap((r) => r.middlewares ?? [])
    .filter(isMaybeCustomer).length

describe("store routes that read the logged-in customer", () => {
  it.each([
    ["POST", "/store/pgs/carts/:id/payment-sessions"],
    ["POST", "/store/pgs/payment-collections/:id/payment-sessions"],
    ["POST", "/store/payment-collections/:id/payment-sessions"],
    ["GET", "/store/pgs/payment-methods"],
    ["GET", "/store/pgs/payment-collections/:id"],
    ["POST", "/store/pgs/payment-collections/:id/apply"],
  ])("%s %s authenticates the customer exactly once", (method, matcher) => {
    expect(authenticationsOf(method, matcher)).toBe(1)
  })
})
