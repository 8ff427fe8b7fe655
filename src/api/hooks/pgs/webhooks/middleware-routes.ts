import type { MiddlewareRoute } from "@medusajs/framework/http"

export const webhookMiddlewares: MiddlewareRoute[] = []
