/** The sandbox's small HTTP layer: parsed requests, replies as values, a path router, gateway-shaped errors. */
import type { IncomingHttpHeaders } from "node:http"
import type { z } from "zod"
import { fieldErrors, fractionalAmountFields, type FieldError } from "../schemas"

export type SandboxRequest = {
  method: string
  url: URL
  path: string
  headers: IncomingHttpHeaders
  rawBody: Buffer
  params: Record<string, string>
  /** The remote address of the TCP connection (used when customer_ip is omitted). */
  remoteAddress: string
}

export type Reply = { status: number; headers?: Record<string, string>; body?: string | Buffer }

export const json = (status: number, value: unknown): Reply => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(value),
})
export const html = (body: string, status = 200): Reply => ({
  status,
  headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" },
  body,
})
export const javascript = (body: string): Reply => ({
  status: 200,
  headers: { "content-type": "application/javascript; charset=utf-8", "cache-control": "no-store" },
  body,
})
export const empty = (status: number): Reply => ({ status })
export const seeOther = (location: string): Reply => ({ status: 303, headers: { location } })

/** Thrown anywhere inside a handler to answer with a specific reply. */
export class ReplyError extends Error {
  constructor(readonly reply: Reply) {
    super(`reply ${reply.status}`)
  }
}

export const validationReply = (method: string, errors: FieldError[]): Reply =>
  json(422, { errors, method, status: 422 })
export const unauthorized = (): ReplyError => new ReplyError(json(401, { error: "Unauthorized" }))
export const notFound = (what = "Not Found"): ReplyError => new ReplyError(json(404, { error: what }))
export const invalid = (req: SandboxRequest, property: string, message: string, params: string[] = []): ReplyError =>
  new ReplyError(validationReply(req.method, [{ property, message, params: [property.split(".").pop()!, ...params] }]))

export function parseJsonBody(req: SandboxRequest): unknown {
  const text = req.rawBody.toString("utf8")
  if (text.trim() === "") throw new ReplyError(validationReply(req.method, [{ property: "body", message: "must not be empty", params: ["body"] }]))
  try {
    return JSON.parse(text)
  } catch {
    throw new ReplyError(validationReply(req.method, [{ property: "body", message: "is not well-formed JSON", params: ["body"] }]))
  }
}

/** Parse and validate a JSON body the way the gateway does: decimals in amounts and every schema rule give 422. */
export function validateBody<S extends z.ZodType>(req: SandboxRequest, schema: S): z.output<S> {
  const value = parseJsonBody(req)
  const fractional = fractionalAmountFields(req.rawBody.toString("utf8"))
  const result = schema.safeParse(value)
  const errors = result.success ? [] : fieldErrors(result.error, value)
  for (const field of fractional) {
    if (!errors.some((e) => e.property === field))
      errors.push({ property: field, message: "must be an integer amount in minor units", params: [field] })
  }
  if (errors.length > 0 || !result.success) throw new ReplyError(validationReply(req.method, errors))
  return result.data
}

export function parseForm(req: SandboxRequest): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(req.rawBody.toString("utf8")))
}

export type Handler = (req: SandboxRequest) => Reply | Promise<Reply>
type Route = { method: string; pattern: string; regex: RegExp; keys: string[]; handler: Handler; kind: RouteKind }
/** api: merchant API (hygiene + bearer); auth: the token call (hygiene); public: pages, scripts, controls. */
export type RouteKind = "api" | "auth" | "public"

export class Router {
  private readonly routes: Route[] = []

  add(method: string, pattern: string, handler: Handler, kind: RouteKind = "public"): void {
    const keys: string[] = []
    const source = pattern
      .split("/")
      .map((part) => {
        if (part.startsWith(":")) {
          keys.push(part.slice(1))
          return "([^/]+)"
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      })
      .join("/")
    this.routes.push({ method, pattern, regex: new RegExp(`^${source}$`), keys, handler, kind })
  }

  match(method: string, path: string): { route: Route; params: Record<string, string> } | { allowed: string[] } | null {
    const allowed: string[] = []
    for (const route of this.routes) {
      const m = route.regex.exec(path)
      if (!m) continue
      if (route.method !== method) {
        allowed.push(route.method)
        continue
      }
      const params: Record<string, string> = {}
      for (const [i, key] of route.keys.entries()) {
        const decoded = safeDecode(m[i + 1])
        // A malformed %-escape cannot name anything we hold.
        if (decoded === null) return null
        params[key] = decoded
      }
      return { route, params }
    }
    return allowed.length ? { allowed } : null
  }
}

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment)
  } catch {
    return null
  }
}

export const escapeHtml = (s: unknown) =>
  String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!)
