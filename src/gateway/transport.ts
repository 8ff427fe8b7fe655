/**
 * HTTP for one client: its own undici Agent (a keep-alive pool per origin), so two clients in one process share
 * no connections, tokens or settings. Every call carries the User-Agent and Content-Type the gateway requires
 * (a missing one is a 403 with an empty body) and a timeout chosen by the kind of call.
 * Network failures become GatewayUnavailableError / GatewayTimeoutError here; HTTP statuses are left to the caller.
 */
import { Agent } from "undici"
import { GatewayTimeoutError, GatewayUnavailableError } from "./errors"

export type CallKind = "token" | "read" | "write" | "manage"
export type Timeouts = Record<CallKind, number>

/** Reads are quick; writes may wait for a provider or an issuer. */
export const DEFAULT_TIMEOUTS: Timeouts = { token: 10_000, read: 10_000, write: 45_000, manage: 45_000 }

export type TransportOptions = {
  userAgent: string
  timeouts?: Partial<Timeouts>
  /** Connections per origin. */
  connections?: number
  connectTimeoutMs?: number
  keepAliveTimeoutMs?: number
}

export type OutgoingRequest = {
  method: "GET" | "POST" | "DELETE"
  url: URL
  headers: Record<string, string>
  body?: string
  kind: CallKind
  /** "POST /api/transactions/authorize": names the call in errors, without ids from the path. */
  operation: string
}

export type IncomingResponse = {
  statusCode: number
  headers: Record<string, string | string[] | undefined>
  text: string
  requestId: string | null
}

/** The connection could not be opened: the request surely never reached the gateway. */
const NOT_SENT = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "UND_ERR_CONNECT_TIMEOUT", "EHOSTUNREACH", "ENETUNREACH"])
const TIMEOUTS = new Set(["UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"])

export class Transport {
  readonly timeouts: Timeouts
  private readonly agent: Agent

  constructor(private readonly options: TransportOptions) {
    this.timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts }
    this.agent = new Agent({
      connections: options.connections ?? 64,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 10_000,
      connect: { timeout: options.connectTimeoutMs ?? 5_000 },
    })
  }

  async send(req: OutgoingRequest): Promise<IncomingResponse> {
    const timeout = this.timeouts[req.kind]
    const headers = { "user-agent": this.options.userAgent, accept: "application/json", ...req.headers }
    try {
      const res = await this.agent.request({
        origin: req.url.origin,
        path: req.url.pathname + req.url.search,
        method: req.method,
        headers,
        body: req.body,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      })
      const text = await res.body.text()
      const id = res.headers["x-request-id"]
      return { statusCode: res.statusCode, headers: res.headers, text, requestId: typeof id === "string" ? id : null }
    } catch (error) {
      const code = (error as { code?: string }).code ?? ""
      if (TIMEOUTS.has(code))
        throw new GatewayTimeoutError(`${req.operation}: no response within ${timeout} ms`, timeout, { operation: req.operation, cause: error })
      const sent = !NOT_SENT.has(code)
      throw new GatewayUnavailableError(
        `${req.operation}: network error (${code || (error as Error).name})${sent ? "; the request may have reached the gateway" : "; the request was not sent"}`,
        sent,
        { operation: req.operation, cause: error },
      )
    }
  }

  close(): Promise<void> {
    return this.agent.close()
  }
}
