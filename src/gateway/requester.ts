/**
 * The pipeline every API call goes through: validate the body with the shared schema (a local failure never
 * reaches the network and names the field like the gateway's 422; a client may leave this to the gateway), serialize once, add the bearer token,
 * send, renew-and-replay once on 401, map failures to typed errors, retry by the rule in retry.ts, and parse
 * the response at the boundary.
 */
import type { z } from "zod"
import { toGatewayErrors, type GatewayFieldError } from "./schemas/validation"
import { errorFromResponse, GatewayError, GatewayProtocolError, GatewayValidationError, type AnyGatewayError } from "./errors"
import { backoffDelay, shouldRetry, sleep, type RetryPolicy, type Safety } from "./retry"
import { redact, redactPath, type GatewayLogger } from "./redact"
import type { TokenProvider } from "./auth"
import type { CallKind, Transport } from "./transport"
import { unacceptableText } from "./text"

export type Operation<Res extends z.ZodType = z.ZodType> = {
  method: "GET" | "POST" | "DELETE"
  /** Path with `{param}` placeholders; the pattern (not the filled path) names the call in errors and logs. */
  pattern: string
  kind: CallKind
  safety: Safety
  request?: z.ZodType
  /** Extra local rules beyond the shared schema, run even when the client leaves the schema to the gateway (payout reference ≤ 40). */
  check?: (body: any) => GatewayFieldError[]
  response: Res
}

export type CallOptions = { params?: Record<string, string>; body?: unknown }

/**
 * Wraps each call in a span (the store's tracing, given by whoever builds the client): `operation` is the method and
 * path pattern, never a filled path, a query or a body; `done` reports the status code and attempts.
 */
export type GatewayTracer = <T>(operation: string, kind: CallKind, run: (done: (info: { statusCode: number | null; attempts: number }) => void) => Promise<T>) => Promise<T>

export class Requester {
  private readonly fixedUrls = new Map<string, URL>()
  // ES private: the bearer token must not show when the requester is inspected.
  #headers: { token: string; value: Record<string, string> } | null = null
  constructor(
    private readonly baseUrl: URL,
    private readonly transport: Transport,
    private readonly auth: TokenProvider,
    private readonly retry: RetryPolicy,
    private readonly logger?: GatewayLogger,
    private readonly tracer?: GatewayTracer,
    private readonly logDebug = true,
    private readonly validateRequests = true,
  ) {}

  /**
   * Validate with the operation's schema (unless the client leaves that to the gateway) and its extra rules: returns
   * what will be sent, or throws a local GatewayValidationError.
   */
  validate(op: Operation, body: unknown): unknown {
    const operation = `${op.method} ${op.pattern}`
    const parsed = op.request && this.validateRequests ? op.request.safeParse(body) : { success: true as const, data: body }
    const fields = parsed.success ? [] : toGatewayErrors(parsed.error, body)
    if (op.check) fields.push(...op.check(body).filter((f) => !fields.some((e) => e.property === f.property)))
    if (fields.length || !parsed.success) throw new GatewayValidationError(fields, true, { operation })
    return parsed.data
  }

  async call<Res extends z.ZodType>(op: Operation<Res>, opts: CallOptions = {}): Promise<z.output<Res>> {
    if (!this.tracer) return this.send(op, opts)
    return this.tracer(`${op.method} ${op.pattern}`, op.kind, (done) => this.send(op, opts, done))
  }

  private async send<Res extends z.ZodType>(op: Operation<Res>, opts: CallOptions, done?: (info: { statusCode: number | null; attempts: number }) => void): Promise<z.output<Res>> {
    const operation = `${op.method} ${op.pattern}`
    const payload = opts.body === undefined ? undefined : JSON.stringify(this.validate(op, opts.body))
    const url = this.urlFor(op.pattern, opts.params)
    let retries = 0
    let replayed = false
    for (let attempt = 1; ; attempt++) {
      // Token failures were already retried by the auth layer: one retry layer per call, not two. A valid cached
      // token is taken without awaiting (one event-loop hop less per call).
      const token = this.auth.cachedToken() ?? (await this.auth.getToken())
      const started = performance.now()
      try {
        const res = await this.transport.send({
          method: op.method,
          url,
          headers: this.headersFor(token),
          body: payload,
          kind: op.kind,
          operation,
        })
        // A 401 was refused before anything happened: renew the token and replay once, whatever the call.
        if (res.statusCode === 401 && !replayed) {
          replayed = true
          this.auth.invalidate(token)
          this.log("warn", "401: renewing the access token and replaying once", operation, attempt, res.statusCode, res.requestId)
          continue
        }
        const body = parseJson(res.text)
        if (res.statusCode < 200 || res.statusCode >= 300) {
          throw errorFromResponse({
            statusCode: res.statusCode,
            body: body.ok ? body.value : res.text,
            requestId: res.requestId,
            operation,
            retryAfter: first(res.headers["retry-after"]),
            insecure: url.protocol === "http:",
          })
        }
        if (!body.ok) throw new GatewayProtocolError(`${operation}: the response is not JSON`, [], { statusCode: res.statusCode, requestId: res.requestId, operation, body: res.text.slice(0, 200) })
        const parsed = op.response.safeParse(body.value)
        if (!parsed.success) {
          const issues = toGatewayErrors(parsed.error, body.value)
          throw new GatewayProtocolError(`${operation}: the response does not match the spec: ${issues.map((e) => `${e.property} ${e.message}`).join("; ")}`, issues, {
            statusCode: res.statusCode,
            requestId: res.requestId,
            operation,
            body: body.value,
          })
        }
        if (this.logger && this.logDebug) this.log("debug", "ok", operation, attempt, res.statusCode, res.requestId, performance.now() - started, opts.body)
        done?.({ statusCode: res.statusCode, attempts: attempt })
        return parsed.data
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error
        let e = error as AnyGatewayError
        // A repeat refused on its reference: the lost first attempt may have succeeded. Say so instead of
        // reporting a plain validation failure the caller would read as "nothing happened".
        if (retries > 0 && e instanceof GatewayValidationError && e.fields.some((f) => f.property === "reference"))
          e = new GatewayValidationError(e.fields, false, { statusCode: e.statusCode, body: e.body, requestId: e.requestId, operation, afterRepeat: true })
        if (retries >= this.retry.maxRetries || !shouldRetry(e, op.safety)) {
          done?.({ statusCode: e.statusCode ?? null, attempts: attempt })
          this.log("error", e.message, operation, attempt, e.statusCode, e.requestId, performance.now() - started)
          throw e
        }
        retries++
        this.log("warn", `retrying after: ${e.message}`, operation, attempt, e.statusCode, e.requestId, performance.now() - started)
        await sleep(backoffDelay(retries, this.retry, e))
      }
    }
  }

  /** Relative to the base URL so a base with a path prefix (https://host/pgs/) keeps it; fixed paths are resolved once. */
  private urlFor(pattern: string, params: Record<string, string> | undefined): URL {
    const cached = params ? undefined : this.fixedUrls.get(pattern)
    if (cached) return cached
    const url = new URL(fill(pattern, params ?? {}).replace(/^\/+/, ""), this.baseUrl)
    if (!params) this.fixedUrls.set(pattern, url)
    return url
  }

  /** The gateway checks Content-Type on every call (403 otherwise); JSON is what the API speaks. Built once per token. */
  private headersFor(token: string): Record<string, string> {
    if (this.#headers?.token !== token) this.#headers = { token, value: { authorization: `Bearer ${token}`, "content-type": "application/json" } }
    return this.#headers.value
  }

  private log(level: "debug" | "warn" | "error", message: string, operation: string, attempt: number, statusCode?: number | null, requestId?: string | null, durationMs?: number, body?: unknown) {
    if (!this.logger) return
    this.logger({
      level,
      message: redact(message) as string,
      operation: redactPath(operation),
      attempt,
      statusCode,
      requestId,
      durationMs: durationMs === undefined ? undefined : Math.round(durationMs),
      ...(body === undefined ? {} : { body: redact(body) }),
    })
  }
}

/** A path parameter the gateway could never match is refused locally, naming it (encodeURIComponent would throw). */
const fill = (pattern: string, params: Record<string, string>) =>
  pattern.replace(/\{(\w+)\}/g, (_, key: string) => {
    const value = params[key]
    const refuse = (message: string) => new GatewayValidationError([{ property: key, message, params: [] }], true)
    if (!value) throw refuse("is required")
    const why = unacceptableText(value)
    if (why) throw refuse(why)
    // encodeURIComponent leaves dots as they are: "." or ".." would walk to another of the gateway's paths.
    if (value === "." || value === "..") throw refuse("is not an id")
    return encodeURIComponent(value)
  })

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text === "") return { ok: true, value: undefined }
  try {
    return { ok: true, value: JSON.parse(text) }
  } catch {
    return { ok: false }
  }
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null
