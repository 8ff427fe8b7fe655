/**
 * The first thing every plugin route runs (store, admin, 3-D Secure notification, pay link, the widget's pay check):
 * a path, query string or body holding what no id or field may hold — U+0000, an unpaired UTF-16 surrogate, bytes
 * that are not percent-encoded UTF-8, a path id longer than any id, a body nested deeper than 32 levels — is answered
 * 400 naming where, before a route, the database (which refuses U+0000) or the gateway client sees it. Registered for
 * every path, acting on ours and on Medusa's payment-session route (see PLUGIN_ROUTE_PREFIXES, GUARDED_MEDUSA_ROUTES).
 */
import type { MedusaErrorHandlerFunction, MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { checkJsonText, MAX_JSON_DEPTH, unacceptableText } from "../gateway/text"
import { invalidData, type FieldError } from "./admin/pgs/validate"
import { onRoutes, requestRoutePath, routedPathname, type RoutePattern } from "./route-path"

/** Longer than any Medusa, gateway or terminal id. */
const MAX_PATH_SEGMENT = 200

function pathProblems(rawPath: string): FieldError[] {
  const problems: FieldError[] = []
  for (const segment of rawPath.split("/").filter(Boolean)) {
    const shown = segment.length > 40 ? `${segment.slice(0, 40)}…` : segment
    let decoded: string
    try {
      decoded = decodeURIComponent(segment)
    } catch {
      problems.push({ field: "path", message: `"${shown}" is not a valid id: it is not percent-encoded UTF-8` })
      continue
    }
    const why = unacceptableText(decoded)
    if (why) problems.push({ field: "path", message: `"${shown}" is not a valid id: it ${why}` })
    else if (decoded.length > MAX_PATH_SEGMENT) problems.push({ field: "path", message: `"${shown}" is not a valid id: at most ${MAX_PATH_SEGMENT} characters` })
  }
  return problems
}

/**
 * Every string (and key) of a parsed body that cannot be taken, named by its dotted path; or one problem when it
 * nests deeper than MAX_JSON_DEPTH (found without recursion, before anything else walks the body).
 */
function bodyProblems(body: unknown): FieldError[] {
  const check = checkJsonText(body)
  if (check.tooDeep) return [{ field: "body", message: `is nested deeper than ${MAX_JSON_DEPTH} levels` }]
  return check.problems.map(({ path, why, inFieldName }) => ({ field: path.join(".") || "body", message: inFieldName ? `(a field name) ${why}` : why }))
}

/** On any spelling Express routes to one of ours or a guarded Medusa route (`/STORE/pgs/…`, `/store/pgs/…/`: route-path.ts). */
export const onPluginRoute = (req: MedusaRequest) => onRoutes(requestRoutePath(req), [...PLUGIN_ROUTE_PREFIXES, ...GUARDED_MEDUSA_ROUTES])

export function rejectHostileInput(req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction) {
  if (!onPluginRoute(req)) return next()
  const rawPath = routedPathname(req)
  // Up to the first "?" only: split("?", 2) would drop whatever follows a second "?" from the check.
  const at = req.originalUrl.indexOf("?")
  const rawQuery = at < 0 ? "" : req.originalUrl.slice(at + 1)
  const problems = [...pathProblems(rawPath), ...queryProblems(rawQuery), ...bodyProblems(req.body)]
  if (problems.length) {
    res.status(400).json(invalidData(problems.slice(0, 20)))
    return
  }
  next()
}

/** The query as sent: a parameter that is not percent-encoded UTF-8 is refused, not silently kept raw. */
function queryProblems(rawQuery: string): FieldError[] {
  const problems: FieldError[] = []
  for (const pair of rawQuery.split("&").filter(Boolean)) {
    const [rawKey, rawValue = ""] = pair.split("=", 2)
    let key: string
    let value: string
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, " "))
      value = decodeURIComponent(rawValue.replace(/\+/g, " "))
    } catch {
      problems.push({ field: rawKey.slice(0, 40), message: "is not percent-encoded UTF-8" })
      continue
    }
    const why = unacceptableText(key) ?? unacceptableText(value)
    if (why) problems.push({ field: key.slice(0, 40) || "query", message: why })
  }
  return problems
}

/**
 * The plugin's route prefixes. The guard is registered on "/" (the first middleware Medusa registers after its own
 * namespace ones) and picks our routes itself: Medusa's own middlewares for /admin and /store include path
 * patterns (`*`, `:id`) that Express decodes, throwing on `%ff` (answered 500) before a middleware on our prefix
 * would run; and a RegExp matcher made under jest's module sandbox fails Medusa's `instanceof RegExp` and silently
 * matches nothing (FRAMEWORK-NOTES 43).
 */
export const PLUGIN_ROUTE_PREFIXES: RoutePattern[] = ["/store/pgs", "/admin/pgs", "/hooks/pgs/three-ds", "/pgs/pay", "/pgs/pay-result", "/pgs/carts"].map((prefix) => ({ prefix }))

/**
 * Medusa's own routes that carry storefront data to our providers, guarded as ours are. Medusa writes a new
 * session's raw `data` to a jsonb column before the provider sees it (FRAMEWORK-NOTES "payment-session route
 * stores raw data first"): U+0000 or a lone surrogate there is a database error, and data nested thousands deep
 * a stack overflow — a 500 whichever provider was chosen. Refused here with a 400 naming the field, for every
 * provider (any provider's session would fail the same way).
 */
export const MEDUSA_SESSION_ROUTE: RoutePattern = { route: "/store/payment-collections/:id/payment-sessions" }
/** Cart completion authorizes: its id is checked (at most 200 characters) before the card-testing guard counts it. */
export const GUARDED_MEDUSA_ROUTES: RoutePattern[] = [MEDUSA_SESSION_ROUTE, { route: "/store/carts/:id/complete" }]

/**
 * Medusa's error handler with one case of ours before it: Express could not decode a path parameter of one of our
 * routes (it throws while matching a layer, before any middleware of ours can run; Medusa would answer 500).
 */
export function withUndecodablePathsAnswered(medusaErrorHandler: MedusaErrorHandlerFunction): MedusaErrorHandlerFunction {
  return (error, req, res, next) => {
    const undecodable = error instanceof URIError || /^Failed to decode param/.test(String((error as Error)?.message))
    if (undecodable && onPluginRoute(req)) {
      res.status(400).json(invalidData(pathProblems(routedPathname(req))))
      return
    }
    return medusaErrorHandler(error, req, res, next)
  }
}

