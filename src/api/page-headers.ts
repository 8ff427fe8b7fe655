/**
 * The headers every HTML page of the plugin sends (pay link pages, the 3-D Secure notification page): the browser
 * takes the body as HTML only (nosniff), never frames it on another site (frame-ancestors; X-Frame-Options for
 * browsers without CSP 3), sends no Referer from it (a pay link's URL holds its token), and keeps no copy.
 * The policy allows what the pages use and nothing else: inline styles, an inline script only where the page
 * says so, forms posting back to this server.
 */
import type { MedusaResponse } from "@medusajs/framework/http"

export type PageFraming = {
  /** The one origin allowed to frame the page (the 3-D Secure challenge's parent); none: no site may. */
  framedBy?: string | null
  /** The page runs its own inline script (the 3-D Secure notification page's postMessage). */
  inlineScript?: boolean
}

export function setPageHeaders(res: MedusaResponse, { framedBy, inlineScript }: PageFraming = {}): void {
  const policy = [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    inlineScript ? "script-src 'unsafe-inline'" : null,
    "form-action 'self'",
    "base-uri 'none'",
    `frame-ancestors ${framedBy ?? "'none'"}`,
  ].filter(Boolean)
  res.setHeader("content-type", "text/html; charset=utf-8")
  res.setHeader("content-security-policy", policy.join("; "))
  res.setHeader("x-content-type-options", "nosniff")
  if (!framedBy) res.setHeader("x-frame-options", "DENY")
  res.setHeader("referrer-policy", "no-referrer")
  res.setHeader("cache-control", "no-store")
}
