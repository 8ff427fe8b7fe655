/**
 * OAuth client credentials against {auth_url}/realms/{realm}/protocol/openid-connect/token.
 * The token is cached per client and renewed a margin before `expires_in` elapses (measured from when the
 * request was sent, so network time only makes us renew earlier). Single-flight: however many calls find no
 * valid token, one token request is in flight and they all await it.
 */
import { tokenResponse } from "./schemas/responses"
import { GatewayError, GatewayProtocolError, GatewayUnauthorizedError, errorFromResponse, type AnyGatewayError } from "./errors"
import { backoffDelay, DEFAULT_RETRY, shouldRetry, sleep, type RetryPolicy } from "./retry"
import type { Transport } from "./transport"
import type { GatewayLogger } from "./redact"

export type Credentials = { authUrl: string; realm: string; clientId: string; clientSecret: string }

/**
 * Renew this long before expiry: 10% of the lifetime (at most 30 s) plus 1 s, because `exp` has whole-second
 * precision and an identity provider may round it down; never more than half the lifetime.
 * 300 s UAT → 31 s, 60 s production → 7 s.
 */
export const renewalMargin = (lifetimeMs: number) => Math.min(lifetimeMs / 2, Math.min(30_000, lifetimeMs * 0.1) + 1_000)

export const tokenUrl = (c: Pick<Credentials, "authUrl" | "realm">) =>
  new URL(`${c.authUrl.replace(/\/+$/, "")}/realms/${encodeURIComponent(c.realm)}/protocol/openid-connect/token`)

const OPERATION = "POST /realms/{realm}/protocol/openid-connect/token"

export class TokenProvider {
  // ES private fields: a secret or token must not show in JSON.stringify or util.inspect of any object holding us.
  #token: { value: string; renewAt: number } | null = null
  readonly #credentials: Credentials
  private inflight: Promise<string> | null = null
  /** Token requests this client has made (successful or not). */
  requests = 0

  constructor(
    private readonly transport: Transport,
    credentials: Credentials,
    private readonly retry: RetryPolicy = DEFAULT_RETRY,
    private readonly logger?: GatewayLogger,
    private readonly now: () => number = Date.now,
  ) {
    this.#credentials = credentials
  }

  /** The cached token while it is valid, else null (no promise: the common case costs no event-loop hop). */
  cachedToken(): string | null {
    return this.#token && this.now() < this.#token.renewAt ? this.#token.value : null
  }

  /** A valid access token: the cached one, the one being fetched, or a new one. */
  getToken(): Promise<string> {
    const cached = this.cachedToken()
    if (cached !== null) return Promise.resolve(cached)
    if (!this.inflight) {
      this.inflight = this.fetch().finally(() => {
        this.inflight = null
      })
    }
    return this.inflight
  }

  /** Forget `token` after the gateway refused it (401); a newer token fetched meanwhile is kept. */
  invalidate(token: string): void {
    if (this.#token?.value === token) this.#token = null
  }

  private async fetch(): Promise<string> {
    const form = new URLSearchParams({
      grant_type: "client_credentials",
      client_id: this.#credentials.clientId,
      client_secret: this.#credentials.clientSecret,
    }).toString()
    for (let attempt = 1; ; attempt++) {
      const sentAt = this.now()
      this.requests++
      try {
        const res = await this.transport.send({
          method: "POST",
          url: tokenUrl(this.#credentials),
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: form,
          kind: "token",
          operation: OPERATION,
        })
        let body: unknown
        try {
          body = res.text ? JSON.parse(res.text) : undefined
        } catch {
          body = res.text
        }
        if (res.statusCode === 400 || res.statusCode === 401) {
          // Keycloak answers invalid_client with 401 (and bad grants with 400): the credentials are wrong.
          throw new GatewayUnauthorizedError(
            `${OPERATION}: the identity provider refused the client credentials (HTTP ${res.statusCode}); check client_id, client_secret and realm`,
            { statusCode: res.statusCode, body, requestId: res.requestId, operation: OPERATION },
          )
        }
        if (res.statusCode < 200 || res.statusCode >= 300)
          throw errorFromResponse({ statusCode: res.statusCode, body, requestId: res.requestId, operation: OPERATION, retryAfter: header(res.headers["retry-after"]) })
        const parsed = tokenResponse.safeParse(body)
        if (!parsed.success) throw new GatewayProtocolError(`${OPERATION}: the token response does not match the spec`, [], { statusCode: res.statusCode, requestId: res.requestId, operation: OPERATION })
        const lifetime = parsed.data.expires_in * 1000
        this.#token = { value: parsed.data.access_token, renewAt: sentAt + lifetime - renewalMargin(lifetime) }
        this.logger?.({ level: "debug", message: "access token obtained", operation: OPERATION, attempt, statusCode: res.statusCode, requestId: res.requestId })
        return parsed.data.access_token
      } catch (error) {
        if (!(error instanceof GatewayError)) throw error
        const e = error as AnyGatewayError
        if (attempt > this.retry.maxRetries || !shouldRetry(e, "idempotent")) throw e
        this.logger?.({ level: "warn", message: "token request failed; retrying", operation: OPERATION, attempt, statusCode: e.statusCode, requestId: e.requestId, error: e.message })
        await sleep(backoffDelay(attempt, this.retry, e))
      }
    }
  }
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v) ?? null
