/**
 * The PGS client: one instance per set of credentials. It owns its connection pool, token cache and settings,
 * so two clients in one process never mix. Resources hang off it like stripe-node's (`client.payments.authorize`).
 */
import { TokenProvider } from "./auth"
import { CardEncryptor } from "./encryption"
import { DEFAULT_RETRY, type RetryPolicy } from "./retry"
import { Requester, type GatewayTracer } from "./requester"
import { Transport, type Timeouts } from "./transport"
import { DEFAULT_USER_AGENT } from "./version"
import type { GatewayLogger } from "./redact"
import { Payments } from "./resources/payments"
import { ThreeDS } from "./resources/three-ds"
import { Modifications } from "./resources/modifications"
import { Status } from "./resources/status"
import { Sessions } from "./resources/sessions"
import { Customers } from "./resources/customers"
import { StoredMethods } from "./resources/stored-methods"
import { HostedPages } from "./resources/hosted-page"
import { WebhookVerifier } from "./webhooks"

export type PgsClientOptions = {
  /** `{base_url}` of the API. */
  baseUrl: string
  /** `{auth_url}` of the identity provider. */
  authUrl: string
  /** `uat` or `production`. */
  realm: string
  clientId: string
  clientSecret: string
  /** Merchant RSA public key (PEM) for encrypting card fields; optional if the store never sends raw cards. */
  merchantPublicKey?: string
  /** Public key(s) (PEM) that sign webhooks; enables `client.webhooks`. */
  webhookPublicKeys?: string | string[]
  /** Appended to the package's own User-Agent (e.g. "medusa/2.21.2"). */
  userAgentSuffix?: string
  timeouts?: Partial<Timeouts>
  retry?: Partial<RetryPolicy>
  /** Connections per origin in the keep-alive pool. */
  connections?: number
  /** Receives redacted log entries. */
  logger?: GatewayLogger
  /**
   * Also send the logger a debug entry for every successful call, with its redacted body (default true). A logger
   * that drops debug entries should say false: redacting the body is work on every call.
   */
  logDebug?: boolean
  /** Wraps each call in the store's tracing (a span per call: operation pattern, status code, attempts). */
  tracer?: GatewayTracer
  /**
   * Check each request body against the spec's schema before sending it (default true): a body the gateway would
   * refuse is refused here, naming the field, and never reaches the network. false leaves that check to the gateway,
   * whose 422 names the same fields (a GatewayValidationError with `local` false). The plugin says false: it builds
   * every body from data it has already checked, and the check costs more than the rest of the client (bench:client).
   * Path parameters and the operations' own extra rules (a payout reference of at most 40) are still checked. The
   * plugin checks what the schemas would have at its own boundaries (phone numbers, a network token's ECI).
   */
  validateRequests?: boolean
}

export class PgsClient {
  readonly payments: Payments
  readonly threeDS: ThreeDS
  readonly modifications: Modifications
  readonly status: Status
  readonly sessions: Sessions
  readonly customers: Customers
  readonly storedMethods: StoredMethods
  readonly hostedPages: HostedPages
  private readonly transport: Transport
  private readonly auth: TokenProvider
  private encryptor: CardEncryptor | null = null
  private verifier: WebhookVerifier | null = null

  constructor(private readonly options: PgsClientOptions) {
    for (const key of ["baseUrl", "authUrl", "realm", "clientId", "clientSecret"] as const)
      if (!options[key]) throw new TypeError(`PgsClient: ${key} is required`)
    const retry = { ...DEFAULT_RETRY, ...options.retry }
    const userAgent = options.userAgentSuffix ? `${DEFAULT_USER_AGENT} ${options.userAgentSuffix}` : DEFAULT_USER_AGENT
    this.transport = new Transport({ userAgent, timeouts: options.timeouts, connections: options.connections })
    const logDebug = options.logDebug ?? true
    const { logger } = options
    this.auth = new TokenProvider(
      this.transport,
      { authUrl: options.authUrl, realm: options.realm, clientId: options.clientId, clientSecret: options.clientSecret },
      retry,
      logger && !logDebug ? (entry) => entry.level !== "debug" && logger(entry) : logger,
    )
    const base = new URL(options.baseUrl.endsWith("/") ? options.baseUrl : `${options.baseUrl}/`)
    const requester = new Requester(base, this.transport, this.auth, retry, logger, options.tracer, logDebug, options.validateRequests ?? true)
    this.payments = new Payments(requester)
    this.threeDS = new ThreeDS(requester)
    this.status = new Status(requester)
    this.modifications = new Modifications(requester, this.status)
    this.sessions = new Sessions(requester)
    this.customers = new Customers(requester)
    this.storedMethods = new StoredMethods(requester)
    this.hostedPages = new HostedPages(requester)
  }

  /** Encrypts card and network-token fields with the merchant public key. */
  get encryption(): CardEncryptor {
    if (!this.encryptor) {
      if (!this.options.merchantPublicKey) throw new TypeError("PgsClient: merchantPublicKey is required to encrypt card data")
      this.encryptor = new CardEncryptor(this.options.merchantPublicKey)
    }
    return this.encryptor
  }

  /** Verifies webhook deliveries (raw body + Authorization header) with the configured webhook key(s). */
  get webhooks(): WebhookVerifier {
    if (!this.verifier) {
      if (!this.options.webhookPublicKeys?.length) throw new TypeError("PgsClient: webhookPublicKeys is required to verify webhooks")
      this.verifier = new WebhookVerifier({ publicKeys: this.options.webhookPublicKeys })
    }
    return this.verifier
  }

  /** Token requests made by this client (for diagnostics and the benchmark). */
  get tokenRequests(): number {
    return this.auth.requests
  }

  /** A valid access token (fetching one if needed); for warm-up and diagnostics. */
  accessToken(): Promise<string> {
    return this.auth.getToken()
  }

  /** Closes this client's connections. */
  close(): Promise<void> {
    return this.transport.close()
  }

  /** Never print credentials when the client is logged or inspected. */
  toJSON() {
    return { baseUrl: this.options.baseUrl, authUrl: this.options.authUrl, realm: this.options.realm, clientId: this.options.clientId }
  }
  [Symbol.for("nodejs.util.inspect.custom")]() {
    return `PgsClient ${JSON.stringify(this.toJSON())}`
  }
}
