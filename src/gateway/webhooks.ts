/**
 * Webhook verification. The gateway POSTs `{event, payload}` with `Authorization: Bearer <JWT>`; the JWT carries
 * `data.SHA512`, the lowercase hex SHA-512 of the raw body. We verify the JWT signature with the configured
 * public key(s) and pinned algorithms (no `none`, no HMAC with a public key as secret), require `exp` and `iat`
 * (a token without an end, issued in the future or long ago is refused: the spec names neither, see
 * docs/assumptions.md), compare the digest in constant time with the SHA-512 of the exact raw bytes, and only then parse
 * the body into the typed union of every event. Any failure throws WebhookVerificationError (answer 401).
 */
import { createHash, createPublicKey, timingSafeEqual, type KeyObject } from "node:crypto"
import { errors as joseErrors, jwtVerify, SignJWT } from "jose"
import { webhookEvent, type WebhookEvent } from "./schemas/webhooks"

export type WebhookFailure = "missing_header" | "malformed" | "bad_signature" | "expired" | "bad_claims" | "digest_mismatch" | "invalid_payload"

export class WebhookVerificationError extends Error {
  override name = "WebhookVerificationError"
  /**
   * The HTTP status the receiver should answer: 401 for a bad signature or digest (spec). A correctly signed body
   * that is not a known event is the gateway's, not a forgery: 400, so it is not mistaken for an attack.
   */
  readonly statusCode: 400 | 401
  constructor(readonly reason: WebhookFailure, message: string) {
    super(message)
    this.statusCode = reason === "invalid_payload" ? 400 : 401
  }
}

/** RS256 is what the gateway uses; the others are accepted only if configured. HMAC and `none` never are. */
export const DEFAULT_WEBHOOK_ALGORITHMS = ["RS256"] as const
const ASYMMETRIC = /^(RS|PS|ES)(256|384|512)$|^EdDSA$/
/** Seconds of clock skew tolerated on exp, nbf and an iat in the future. */
export const WEBHOOK_CLOCK_TOLERANCE_SECONDS = 30
/**
 * The oldest `iat` accepted, in seconds. Assumption: the spec gives none; the gateway signs each attempt of its 24-hour retries
 * afresh (the sandbox with a 10-minute `exp`), so a token older than this is a replay, not a retry.
 */
export const WEBHOOK_MAX_TOKEN_AGE_SECONDS = 15 * 60

export type WebhookVerifierOptions = {
  /** PEM public key(s). Several are tried in order (key rotation; the spec does not say which key signs which event). */
  publicKeys: string | KeyObject | ReadonlyArray<string | KeyObject>
  algorithms?: readonly string[]
  /** Seconds of clock skew tolerated on exp, nbf and iat (default WEBHOOK_CLOCK_TOLERANCE_SECONDS). */
  clockToleranceSeconds?: number
  /** The oldest iat accepted, in seconds (default WEBHOOK_MAX_TOKEN_AGE_SECONDS). */
  maxTokenAgeSeconds?: number
}

export type VerifiedWebhook = {
  event: WebhookEvent
  claims: Record<string, unknown>
  /** Lowercase hex SHA-512 of the raw body (verified against the JWT): identifies the delivery without hashing again. */
  sha512: string
}

export class WebhookVerifier {
  private readonly keys: KeyObject[]
  private readonly algorithms: string[]

  constructor(private readonly options: WebhookVerifierOptions) {
    const list = Array.isArray(options.publicKeys) ? options.publicKeys : [options.publicKeys]
    this.keys = (list as Array<string | KeyObject>).map((k) => (typeof k === "string" ? createPublicKey(k) : k))
    if (this.keys.length === 0) throw new TypeError("WebhookVerifier needs at least one public key")
    this.algorithms = [...(options.algorithms ?? DEFAULT_WEBHOOK_ALGORITHMS)]
    const bad = this.algorithms.filter((a) => !ASYMMETRIC.test(a))
    if (bad.length) throw new TypeError(`Only asymmetric JWT algorithms can verify webhooks, not ${bad.join(", ")}`)
  }

  /** Verify a delivery: `rawBody` exactly as received (before any JSON parsing), and its Authorization header. */
  async verify(rawBody: Buffer | Uint8Array | string, authorization: string | string[] | null | undefined): Promise<VerifiedWebhook> {
    const header = Array.isArray(authorization) ? authorization[0] : authorization
    if (!header) throw new WebhookVerificationError("missing_header", "No Authorization header")
    const match = /^Bearer\s+([A-Za-z0-9_-]*\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)\s*$/.exec(header)
    if (!match) throw new WebhookVerificationError("malformed", "Authorization is not a Bearer JWT")
    const claims = await this.verifySignature(match[1])

    const expected = (claims.data as { SHA512?: unknown } | undefined)?.SHA512
    if (typeof expected !== "string" || !/^[0-9a-fA-F]{128}$/.test(expected))
      throw new WebhookVerificationError("malformed", "The JWT has no data.SHA512 digest")
    const bytes = typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : Buffer.isBuffer(rawBody) ? rawBody : Buffer.from(rawBody)
    const actual = createHash("sha512").update(bytes).digest()
    if (!timingSafeEqual(actual, Buffer.from(expected, "hex")))
      throw new WebhookVerificationError("digest_mismatch", "data.SHA512 does not match the SHA-512 of the body")

    let json: unknown
    try {
      json = JSON.parse(bytes.toString("utf8"))
    } catch {
      throw new WebhookVerificationError("invalid_payload", "The body is not JSON")
    }
    const parsed = webhookEvent.safeParse(json)
    if (!parsed.success)
      throw new WebhookVerificationError("invalid_payload", `The body is not a known event: ${parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`)
    return { event: parsed.data, claims, sha512: actual.toString("hex") }
  }

  private async verifySignature(jwt: string): Promise<Record<string, unknown>> {
    const checks = {
      algorithms: this.algorithms,
      clockTolerance: this.options.clockToleranceSeconds ?? WEBHOOK_CLOCK_TOLERANCE_SECONDS,
      maxTokenAge: this.options.maxTokenAgeSeconds ?? WEBHOOK_MAX_TOKEN_AGE_SECONDS,
      requiredClaims: ["exp", "iat"],
    }
    let last: unknown
    for (const key of this.keys) {
      try {
        const { payload } = await jwtVerify(jwt, key, checks)
        return payload as Record<string, unknown>
      } catch (error) {
        // jose checks claims only after the signature verified: this key signed it, no other key is tried.
        if (error instanceof joseErrors.JWTExpired) throw new WebhookVerificationError("expired", `The webhook JWT is too old: ${error.message}`)
        if (error instanceof joseErrors.JWTClaimValidationFailed) throw new WebhookVerificationError("bad_claims", `The webhook JWT is not valid now: ${error.message}`)
        last = error
      }
    }
    if (last instanceof joseErrors.JWSSignatureVerificationFailed) throw new WebhookVerificationError("bad_signature", "The webhook signature is not valid for the configured key")
    if (last instanceof joseErrors.JOSEAlgNotAllowed) throw new WebhookVerificationError("bad_signature", "The webhook JWT uses an algorithm that is not allowed")
    if (last instanceof joseErrors.JWSInvalid || last instanceof joseErrors.JWTInvalid)
      throw new WebhookVerificationError("malformed", `The webhook JWT is not valid: ${(last as Error).message}`)
    throw new WebhookVerificationError("bad_signature", "The webhook JWT could not be verified")
  }
}

/**
 * Test helper (like stripe-node's generateTestHeaderString): sign a body the way the gateway does (iat now, exp in
 * 5 minutes), for tests and forgeries. Never used by the verifier itself.
 */
export async function generateTestWebhookHeader(opts: {
  body: string | Buffer
  privateKey: KeyObject | CryptoKey
  alg?: string
  /** Override the digest (to forge a mismatch). */
  sha512?: string
  /** `null` leaves `exp` out (to forge a token without an end). */
  expiresAt?: number | string | null
  /** Seconds since the epoch; `null` leaves `iat` out. */
  issuedAt?: number | null
  /** Extra protected-header fields (`kid`, ...). */
  header?: Record<string, unknown>
}): Promise<string> {
  const digest = opts.sha512 ?? createHash("sha512").update(opts.body).digest("hex")
  let jwt = new SignJWT({ data: { SHA512: digest } }).setProtectedHeader({ ...opts.header, alg: opts.alg ?? "RS256", typ: "JWT" })
  if (opts.issuedAt !== null) jwt = jwt.setIssuedAt(opts.issuedAt)
  if (opts.expiresAt !== null) jwt = jwt.setExpirationTime(opts.expiresAt ?? "5m")
  return `Bearer ${await jwt.sign(opts.privateKey)}`
}
