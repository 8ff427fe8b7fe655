/**
 * Medusa reads only this file for middlewares; each route family keeps its own list next to its routes.
 */
import { defineMiddlewares } from "@medusajs/framework/http"
import { storePgsMiddlewares } from "./store/pgs/middleware-routes"
import { webhookMiddlewares } from "./hooks/pgs/webhooks/middleware-routes"
import { threeDsNotificationMiddlewares } from "./hooks/pgs/three-ds/middleware-routes"
import { savedCardMiddlewares } from "./store/pgs/saved-cards/middleware-routes"
import { adminPgsMiddlewares } from "./admin/pgs/middleware-routes"

export default defineMiddlewares({
  routes: [...storePgsMiddlewares, ...webhookMiddlewares, ...threeDsNotificationMiddlewares, ...savedCardMiddlewares, ...adminPgsMiddlewares],
})
