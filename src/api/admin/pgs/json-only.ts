/**
 * CSRF: a page on another site can make an admin's browser send a form (urlencoded, multipart or text/plain) with
 * the admin's cookie; it cannot send `application/json` without a CORS preflight, which Medusa answers only for the
 * admin's own origins (`ADMIN_CORS`). Medusa parses JSON, text and urlencoded bodies on every route, so the plugin's
 * admin routes that change something take JSON only: anything else is a 415 before any body is read further.
 * A request with no body and no Content-Type (a button such as "Test connection") passes.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"

const isJson = (contentType: string) => {
  const type = contentType.split(";")[0]!.trim().toLowerCase()
  return type === "application/json" || /^application\/[\w.-]+\+json$/.test(type)
}

const hasBody = (req: MedusaRequest) => Number(req.headers["content-length"] ?? 0) > 0 || req.headers["transfer-encoding"] !== undefined

export function jsonBodiesOnly(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  const contentType = req.headers["content-type"]
  if (contentType === undefined ? !hasBody(req) : isJson(contentType)) return next()
  const sent = contentType === undefined ? "a body without a Content-Type" : contentType.split(";")[0]!.trim().slice(0, 100)
  res.status(415).json({
    type: "unsupported_media_type",
    message: `This admin route takes a JSON body (Content-Type: application/json), not ${sent}. Forms are refused so that another site cannot send them with your session.`,
  })
}

/** Every method that changes something. */
export const CHANGING_METHODS = ["POST", "PUT", "PATCH", "DELETE"] as const
