/**
 * Secrets that must round-trip through Medusa (wallet tokens, encrypted card fields, 3-D Secure payment_data)
 * are sealed with AES-256-GCM under a key derived from the client secret: the storefront sees an opaque,
 * tamper-evident blob, and only this server can open it. `integrity` (HMAC-SHA256, another derived key) binds
 * the public fields a transaction is checked against, so forged session data is refused.
 */
import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto"
import { z } from "zod"
import { browserInfo, type BrowserInfo } from "../gateway/schemas"

export const sealedSecrets = z.object({
  payment_method: z.record(z.string(), z.unknown()).optional(),
  payment_data: z.string().optional(),
  /** Redirect methods: the payer's details from the cart (personal data: kept out of the public session data). */
  payer: z.record(z.string(), z.string()).optional(),
  /** Redirect methods: what the shopper chose or typed (scheme code, phone). */
  method_data: z.record(z.string(), z.string()).optional(),
  /**
   * The shopper's browser details (3-D Secure, vouchers), until the gateway approves. Sealed rather than public: Medusa
   * copies a session's public data through every step of its payment workflows, so eight keys fewer there cost less
   * on every checkout (docs/benchmarks.md), and they are the shopper's personal data.
   */
  browser_info: browserInfo.optional(),
  /**
   * The shopper's IP as our routes saw it (api/client-address.ts), until the gateway approves: personal data, which
   * Medusa would otherwise serve in every store cart and order response that carries the session.
   */
  customer_ip: z.string().optional(),
})
export type SealedSecrets = z.infer<typeof sealedSecrets>

/** A session's browser details: sealed in new sessions; public in those an earlier version of the plugin made. */
export function browserInfoOf(publicData: { browser_info?: BrowserInfo | null }, secrets: SealedSecrets): BrowserInfo | undefined {
  return secrets.browser_info ?? publicData.browser_info ?? undefined
}

/** A session's shopper IP: sealed in new sessions; in the data of those an earlier version of the plugin made. */
export function customerIpOf(publicData: { customer_ip?: string | null }, secrets: SealedSecrets): string | undefined {
  return secrets.customer_ip ?? publicData.customer_ip ?? undefined
}

/**
 * Once the browser details and the IP are sealed, an earlier version's public copies are cleared (null: Medusa
 * merges session data, so a key left out would stay).
 */
export const clearedPublicBrowserInfo = (publicData: { browser_info?: BrowserInfo | null; customer_ip?: string | null }) => ({
  ...(publicData.browser_info ? { browser_info: null } : {}),
  ...(publicData.customer_ip ? { customer_ip: null } : {}),
})

export class SealError extends Error {
  override name = "SealError"
}

export class Sealer {
  private readonly encKey: Buffer
  private readonly macKey: Buffer

  constructor(secret: string) {
    this.encKey = Buffer.from(hkdfSync("sha256", secret, "medusa-payment-pgs", "session-data-seal", 32))
    this.macKey = Buffer.from(hkdfSync("sha256", secret, "medusa-payment-pgs", "session-data-integrity", 32))
  }

  seal(secrets: SealedSecrets, sessionId: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv("aes-256-gcm", this.encKey, iv)
    cipher.setAAD(Buffer.from(sessionId))
    const body = Buffer.concat([cipher.update(JSON.stringify(secrets), "utf8"), cipher.final()])
    return ["v1", iv.toString("base64url"), body.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".")
  }

  /** The sealed secrets of this session; refuses a blob made for another session or altered in any way. */
  open(blob: string | null | undefined, sessionId: string): SealedSecrets {
    if (!blob) return {}
    const [version, iv, body, tag] = blob.split(".")
    if (version !== "v1" || !iv || !body || !tag) throw new SealError("sealed session data has an unknown format")
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.encKey, Buffer.from(iv, "base64url"))
      decipher.setAAD(Buffer.from(sessionId))
      decipher.setAuthTag(Buffer.from(tag, "base64url"))
      const text = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8")
      return sealedSecrets.parse(JSON.parse(text))
    } catch {
      throw new SealError("sealed session data was altered or made for another session")
    }
  }

  integrity(fields: { session_id: string; reference: string; terminal_id: string; transaction_type: string; currency_code: string; amount_minor: number }): string {
    const canonical = [fields.session_id, fields.reference, fields.terminal_id, fields.transaction_type, fields.currency_code.toLowerCase(), String(fields.amount_minor)].join("|")
    return createHmac("sha256", this.macKey).update(canonical).digest("base64url")
  }

  verifyIntegrity(fields: Parameters<Sealer["integrity"]>[0] & { integrity: string }): boolean {
    const expected = Buffer.from(this.integrity(fields))
    const given = Buffer.from(fields.integrity)
    return expected.length === given.length && timingSafeEqual(expected, given)
  }
}
