/**
 * The one way the plugin's guards decide "is this request on route X": the path as Express (4.x, which Medusa 2
 * runs) routes it, in one canonical spelling. Express takes the pathname `parseurl` gives (an absolute-form
 * request URL `http://host/store/…` and anything after `#` are routed by their path alone) and matches route
 * patterns case-insensitively with an optional trailing slash; Medusa's own route finder (path-to-regexp 8, for
 * body parsers, CORS and auth) is case-insensitive too. A guard comparing the raw URL with "/store/…" is skipped
 * by `/STORE/…` while the route still runs (FRAMEWORK-NOTES "routes match in any case").
 *
 * The canonical form also folds what Express itself would not route but a proxy in front may hand it normalised
 * (runs of slashes, `.`/`..` segments, percent-encoded letters such as `/st%6Fre`): a guard that acts on more
 * spellings than the router only answers 400 where the router would have answered 404.
 */
import { posix } from "node:path"
import parseurl from "parseurl"

/** RFC 3986 unreserved characters: percent-encoding one of them does not change the URI (section 6.2.2.2). */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/

/** The raw (still percent-encoded) pathname Express routes this request by. */
export function routedPathname(req: { originalUrl?: string; url?: string }): string {
  const parsed = parseurl.original(req as Parameters<typeof parseurl.original>[0])
  return parsed?.pathname ?? "/"
}

/** The pathname in the one spelling every guard compares: lower case, unreserved characters decoded, no empty, `.` or `..` segment, no trailing slash. */
export function canonicalPath(pathname: string): string {
  const decoded = pathname.replace(/%([0-9A-Fa-f]{2})/g, (encoded, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16))
    return UNRESERVED.test(char) ? char : encoded
  })
  const normalised = posix.normalize(`/${decoded}`).toLowerCase()
  return normalised.length > 1 && normalised.endsWith("/") ? normalised.slice(0, -1) : normalised
}

/** Route patterns as the plugin's lists write them: a prefix ("/store/pgs": itself and below) or a route with `:param` segments. */
export type RoutePattern = { prefix: string } | { route: string }

const compiled = new Map<string, RegExp>()
function routeRegExp(route: string): RegExp {
  let regexp = compiled.get(route)
  if (!regexp) {
    const source = route
      .toLowerCase()
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/")
    regexp = new RegExp(`^${source}$`)
    compiled.set(route, regexp)
  }
  return regexp
}

/** Whether a canonical path (canonicalPath) is on one of the patterns. */
export function onRoutes(path: string, patterns: readonly RoutePattern[]): boolean {
  return patterns.some((pattern) => {
    if ("route" in pattern) return routeRegExp(pattern.route).test(path)
    const prefix = pattern.prefix.toLowerCase()
    return path === prefix || path.startsWith(`${prefix}/`)
  })
}

/** The request's path as every guard compares it. */
export const requestRoutePath = (req: { originalUrl?: string; url?: string }) => canonicalPath(routedPathname(req))
