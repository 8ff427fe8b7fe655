/**
 * The identity provider (OAuth client credentials, signed JWT access tokens) and bearer checks.
 * Tokens are RS256 JWTs signed with the sandbox's idp key; a verified token is cached until it expires
 * so bearer checks stay cheap under benchmark load.
 */
import { SignJWT, jwtVerify } from "jose"
import { newUuid } from "./ids"
import { json, parseForm, ReplyError, unauthorized, type Reply, type SandboxRequest } from "./http"
import type { SandboxContext } from "./context"
import type { Merchant } from "./types"

export async function issueToken(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  ctx.stats.tokenRequests++
  if (req.params.realm !== ctx.options.realm) return json(404, { error: "Realm does not exist" })
  const form = parseForm(req)
  if (form.grant_type !== "client_credentials")
    return json(400, { error: "unsupported_grant_type", error_description: "Unsupported grant_type" })
  const merchant = ctx.merchantByClientId(form.client_id ?? "")
  if (!merchant || merchant.client_secret !== form.client_secret)
    return json(401, { error: "invalid_client", error_description: "Invalid client or Invalid client credentials" })
  const ttl = ctx.options.tokenTtlSeconds
  const accessToken = await new SignJWT({ merchant_id: merchant.merchant_id, azp: merchant.client_id, typ: "Bearer", iat_ms: Date.now() })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: "sandbox-idp" })
    .setIssuer(`${ctx.urls.auth}/realms/${ctx.options.realm}`)
    .setSubject(merchant.client_id)
    .setJti(newUuid())
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + ttl)
    .sign(ctx.keys.idp.privateKey)
  return json(200, {
    access_token: accessToken,
    expires_in: ttl,
    refresh_expires_in: 0,
    token_type: "Bearer",
    "not-before-policy": 0,
    scope: "profile email",
  })
}

const verified = new WeakMap<SandboxContext, Map<string, { merchantId: string; expiresAt: number; issuedAt: number }>>()

/** The merchant behind the request's bearer token; a missing, expired, forged or revoked token gets 401. */
export async function requireMerchant(ctx: SandboxContext, req: SandboxRequest): Promise<Merchant> {
  const header = req.headers.authorization ?? ""
  const match = /^Bearer\s+(\S+)$/i.exec(header)
  if (!match) throw unauthorized()
  const token = match[1]
  let cache = verified.get(ctx)
  if (!cache) verified.set(ctx, (cache = new Map()))
  const hit = cache.get(token)
  const now = Date.now()
  let entry = hit && hit.expiresAt > now ? hit : undefined
  if (!entry) {
    try {
      const { payload } = await jwtVerify(token, ctx.keys.idp.publicKey, {
        algorithms: ["RS256"],
        issuer: `${ctx.urls.auth}/realms/${ctx.options.realm}`,
      })
      entry = { merchantId: String(payload.merchant_id), expiresAt: (payload.exp ?? 0) * 1000, issuedAt: Number(payload.iat_ms ?? 0) }
      if (cache.size > 10_000) cache.clear()
      cache.set(token, entry)
    } catch {
      throw unauthorized()
    }
  }
  const merchant = ctx.merchants.get(entry.merchantId)
  // Tokens issued before a revocation (control route) are refused, as after a key rotation at the identity provider.
  if (!merchant || entry.issuedAt < ctx.revokedBefore) throw unauthorized()
  return merchant
}

export const forbiddenEmpty = (): ReplyError => new ReplyError({ status: 403 })

/** Request hygiene of the gateway: no User-Agent or a wrong Content-Type gets 403 with an empty body. */
export function checkHygiene(req: SandboxRequest, expectedContentType: string): void {
  const ua = req.headers["user-agent"]
  if (!ua || !String(ua).trim()) throw forbiddenEmpty()
  const contentType = String(req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase()
  const hasBody = req.method === "POST" || req.method === "PUT" || req.method === "PATCH"
  if (hasBody ? contentType !== expectedContentType : contentType !== "" && contentType !== expectedContentType)
    throw forbiddenEmpty()
}
