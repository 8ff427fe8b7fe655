import type { MiddlewareRoute } from "@medusajs/framework/http"

export const threeDsNotificationMiddlewares: MiddlewareRoute[] = []
