import type { MiddlewareRoute } from "@medusajs/framework/http"
import { validateBody } from "../../../store/pgs/validate-body"
import { notificationBody } from "./validators"

/**
 * The ACS posts application/x-www-form-urlencoded. Medusa already parses urlencoded bodies on every route
 * (express.urlencoded, extended: true); the entry states the size limit and validates the one field we read.
 */
export const threeDsNotificationMiddlewares: MiddlewareRoute[] = [
  {
    methods: ["POST"],
    matcher: "/hooks/pgs/three-ds/notification",
    bodyParser: { sizeLimit: "64kb" },
    middlewares: [validateBody(notificationBody)],
  },
]
