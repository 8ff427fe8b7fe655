/**
 * Medusa reads only this file for middlewares; each route family keeps its own list next to its routes.
 */
import { defineMiddlewares, errorHandler } from "@medusajs/framework/http"
import { storePgsMiddlewares } from "./store/pgs/middleware-routes"
import { webhookMiddlewares } from "./hooks/pgs/webhooks/middleware-routes"
import { threeDsNotificationMiddlewares } from "./hooks/pgs/three-ds/middleware-routes"
import { savedCardMiddlewares } from "./store/pgs/saved-cards/middleware-routes"
import { adminPgsMiddlewares } from "./admin/pgs/middleware-routes"
import { rejectHostileInput, withUndecodablePathsAnswered } from "./hostile-input"
import { publicPaymentDataMiddlewares } from "./store/public-payment-data"
import { refuseCardData } from "./card-data-guard"
import { cardTestingMiddlewares } from "./card-testing/middleware-routes"

/** First on every plugin route: what no id or field may hold, and card data a store may not hold, is a 400 before anything else reads it. */
const hostileInputGuards = [{ matcher: "/", middlewares: [rejectHostileInput, refuseCardData] }]

export default defineMiddlewares({
  // Medusa's own, plus a 400 for an undecodable path id on our routes. A store whose middlewares file sets its own
  // errorHandler replaces this one (Medusa keeps the last); then such a request is answered as that handler says.
  errorHandler: withUndecodablePathsAnswered(errorHandler()),
  routes: [...hostileInputGuards, ...cardTestingMiddlewares, ...storePgsMiddlewares, ...publicPaymentDataMiddlewares, ...webhookMiddlewares, ...threeDsNotificationMiddlewares, ...savedCardMiddlewares, ...adminPgsMiddlewares],
})
