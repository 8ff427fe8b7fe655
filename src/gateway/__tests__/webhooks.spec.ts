import { createHash, generateKeyPairSync } from "node:crypto"
import { SignJWT } from "jose"
import { generateTestWebhookHeader, WebhookVerificationError, WebhookVerifier } from "../webhooks"

const gateway = generateKeyPairSync("rsa", { modulusLength: 2048 })
const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 })
const publicPem = gateway.publicKey.export({ type: "spki", format: "pem" }).toString()
const verifier = new WebhookVerifier({ publicKeys: publicPem })

const body = JSON.stringify({
  event: "tokenization-webhook:payment-method:tokenized",
  payload: {
    payment_method: { id: "pm_1", type: "card", card: { brand: "VISA", last_4: "1000", bin: "400000", masked: "400000******1000", exp_month: 12, exp_year: 2030 } },
    transaction_id: "trx_1",
    customer: null,
    merchant_id: "mer_1",
    created_at: "2026-01-01T00:00:00.000Z",
  },
})
const b64url = (v: unknown) => Buffer.from(JSON.stringify(v)).toString("base64url")
const digest = (s: string) => createHash("sha512").update(s).digest("hex")

async function rejection(raw: string, header: string | undefined, statusCode = 401): Promise<WebhookVerificationError> {
  try {
    await verifier.verify(raw, header)
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError)
    expect((error as WebhookVerificationError).statusCode).toBe(statusCode)
    return error as WebhookVerificationError
  }
  throw new Error("the webhook was accepted")
}

describe("webhook verification", () => {
  it("accepts a body signed by the gateway key and returns the typed event", async () => {
    const header = await generateTestWebhookHeader({ body, privateKey: gateway.privateKey, expiresAt: "5m" })
    const { event } = await verifier.verify(Buffer.from(body), header)
    expect(event.event).toBe("tokenization-webhook:payment-method:tokenized")
  })

  it("returns the SHA-512 of the verified bytes, so the receiver identifies the delivery without hashing again", async () => {
    const header = await generateTestWebhookHeader({ body, privateKey: gateway.privateKey })
    expect((await verifier.verify(Buffer.from(body), header)).sha512).toBe(digest(body))
  })

  it("accepts the flat tokenization payload form too", async () => {
    const flat = JSON.stringify({ event: "tokenization-webhook:payment-method:tokenized", payload: { data: { payment_method_id: "pm_2", payment_method_type: "card", card_last_4: "1000" } } })
    const header = await generateTestWebhookHeader({ body: flat, privateKey: gateway.privateKey })
    await expect(verifier.verify(flat, header)).resolves.toBeTruthy()
  })

  it("rejects a delivery without an Authorization header", async () => {
    expect((await rejection(body, undefined)).reason).toBe("missing_header")
  })

  it("rejects a malformed JWT", async () => {
    expect((await rejection(body, "Bearer not-a-jwt")).reason).toBe("malformed")
    expect((await rejection(body, "Basic abc")).reason).toBe("malformed")
    expect((await rejection(body, "Bearer a.b.c")).reason).toBe("malformed")
  })

  it("rejects a bad signature", async () => {
    const header = await generateTestWebhookHeader({ body, privateKey: gateway.privateKey })
    const [h, p, s] = header.slice(7).split(".")
    const flipped = s.slice(0, 10) + (s[10] === "A" ? "B" : "A") + s.slice(11)
    expect((await rejection(body, `Bearer ${h}.${p}.${flipped}`)).reason).toBe("bad_signature")
  })

  it("rejects a token signed with another key", async () => {
    const header = await generateTestWebhookHeader({ body, privateKey: stranger.privateKey })
    expect((await rejection(body, header)).reason).toBe("bad_signature")
  })

  it("rejects alg none", async () => {
    const jwt = `${b64url({ alg: "none", typ: "JWT" })}.${b64url({ data: { SHA512: digest(body) } })}.`
    expect(["bad_signature", "malformed"]).toContain((await rejection(body, `Bearer ${jwt}`)).reason)
  })

  it("rejects HS256 signed with the public key as the secret", async () => {
    const jwt = await new SignJWT({ data: { SHA512: digest(body) } }).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode(publicPem))
    expect((await rejection(body, `Bearer ${jwt}`)).reason).toBe("bad_signature")
  })

  it("rejects a digest of other bytes", async () => {
    const header = await generateTestWebhookHeader({ body, privateKey: gateway.privateKey, sha512: digest(body + " ") })
    expect((await rejection(body, header)).reason).toBe("digest_mismatch")
  })

  it("rejects a body re-serialized with different whitespace", async () => {
    const header = await generateTestWebhookHeader({ body, privateKey: gateway.privateKey })
    const reserialized = JSON.stringify(JSON.parse(body), null, 2)
    expect((await rejection(reserialized, header)).reason).toBe("digest_mismatch")
  })

  it("rejects an expired token when exp is present", async () => {
    const header = await generateTestWebhookHeader({ body, privateKey: gateway.privateKey, expiresAt: Math.floor(Date.now() / 1000) - 120 })
    expect((await rejection(body, header)).reason).toBe("expired")
  })

  describe("token lifetime (exp required, iat bounded)", () => {
    const now = () => Math.floor(Date.now() / 1000)
    /** Signed with the gateway key, with exactly the claims given (no defaults). */
    const signed = (claims: { iat?: number; exp?: number }) =>
      new SignJWT({ data: { SHA512: digest(body) }, ...claims }).setProtectedHeader({ alg: "RS256", typ: "JWT" }).sign(gateway.privateKey)

    it("refuses a correctly signed token without exp", async () => {
      const error = await rejection(body, `Bearer ${await signed({ iat: now() })}`)
      expect(error.reason).toBe("bad_claims")
      expect(error.message).toMatch(/exp/)
    })

    it("refuses a correctly signed token without iat", async () => {
      expect((await rejection(body, `Bearer ${await signed({ exp: now() + 300 })}`)).reason).toBe("bad_claims")
    })

    it("refuses a token issued in the future beyond the clock tolerance", async () => {
      const error = await rejection(body, `Bearer ${await signed({ iat: now() + 120, exp: now() + 600 })}`)
      expect(error.reason).toBe("bad_claims")
      expect(error.message).toMatch(/iat/)
    })

    it("refuses a token issued more than 15 minutes ago, even though its exp is still ahead", async () => {
      const error = await rejection(body, `Bearer ${await signed({ iat: now() - 16 * 60, exp: now() + 3600 })}`)
      expect(error.reason).toBe("expired")
      expect(error.message).toMatch(/iat/)
    })

    it("accepts a token issued a few seconds in the future (clock skew) or 14 minutes ago", async () => {
      await expect(verifier.verify(body, `Bearer ${await signed({ iat: now() + 10, exp: now() + 600 })}`)).resolves.toBeTruthy()
      await expect(verifier.verify(body, `Bearer ${await signed({ iat: now() - 14 * 60, exp: now() + 60 })}`)).resolves.toBeTruthy()
    })

    it("with several keys, tells a token of one of them without exp as such, not as a signature no key verifies", async () => {
      const both = new WebhookVerifier({ publicKeys: [publicPem, stranger.publicKey] })
      await expect(both.verify(body, `Bearer ${await signed({ iat: now() })}`)).rejects.toMatchObject({ reason: "bad_claims" })
    })
  })

  it("rejects a correctly signed body that is not a known event with 400, not as a forgery", async () => {
    const other = JSON.stringify({ event: "something:else", payload: {} })
    const header = await generateTestWebhookHeader({ body: other, privateKey: gateway.privateKey })
    expect((await rejection(other, header, 400)).reason).toBe("invalid_payload")
  })

  it("refuses to be configured with a symmetric or none algorithm", () => {
    expect(() => new WebhookVerifier({ publicKeys: publicPem, algorithms: ["HS256"] })).toThrow(/asymmetric/)
    expect(() => new WebhookVerifier({ publicKeys: publicPem, algorithms: ["none"] })).toThrow(/asymmetric/)
  })

  it("accepts any of several configured keys (rotation)", async () => {
    const both = new WebhookVerifier({ publicKeys: [stranger.publicKey, publicPem] })
    const header = await generateTestWebhookHeader({ body, privateKey: gateway.privateKey })
    await expect(both.verify(body, header)).resolves.toBeTruthy()
  })
})
