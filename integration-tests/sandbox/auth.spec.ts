import { decodeJwt, decodeProtectedHeader } from "jose"
import { startHarness, type SandboxHarness } from "../support/sandbox"

describe("sandbox identity provider (client credentials)", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness()
  })
  afterAll(() => h.close())

  const tokenCall = (form: Record<string, string>, realm = h.config.realm) =>
    h.raw("POST", `${h.config.auth_url}/realms/${realm}/protocol/openid-connect/token`, { form })
  const valid = () => ({ grant_type: "client_credentials", client_id: h.config.client_id, client_secret: h.config.client_secret })

  it("issues a signed JWT access token with expires_in and token_type", async () => {
    const res = await tokenCall(valid())
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ token_type: "Bearer", expires_in: 300 })
    expect(decodeProtectedHeader(res.body.access_token).alg).toBe("RS256")
    const claims = decodeJwt(res.body.access_token)
    expect(claims.sub).toBe(h.config.client_id)
    expect(claims.exp! - claims.iat!).toBe(300)
  })

  it("gives 300-second tokens on the uat realm and 60-second tokens on production", async () => {
    const prod = await startHarness({ realm: "production" })
    try {
      const res = await prod.raw("POST", prod.config.token_url, {
        form: { grant_type: "client_credentials", client_id: prod.config.client_id, client_secret: prod.config.client_secret },
      })
      expect(res.body.expires_in).toBe(60)
    } finally {
      await prod.close()
    }
    expect((await tokenCall(valid())).body.expires_in).toBe(300)
  })

  it("shortens token lifetimes when a test asks for it", async () => {
    const short = await startHarness({ tokenTtlSeconds: 2 })
    try {
      const res = await short.raw("POST", short.config.token_url, {
        form: { grant_type: "client_credentials", client_id: short.config.client_id, client_secret: short.config.client_secret },
      })
      expect(res.body.expires_in).toBe(2)
    } finally {
      await short.close()
    }
  })

  it("refuses a wrong client secret", async () => {
    const res = await tokenCall({ ...valid(), client_secret: "wrong" })
    expect(res.status).toBe(401)
    expect(res.body.error).toBe("invalid_client")
  })

  it("refuses a grant type other than client_credentials", async () => {
    const res = await tokenCall({ ...valid(), grant_type: "password" })
    expect(res.status).toBe(400)
  })

  it("answers 404 for an unknown realm", async () => {
    expect((await tokenCall(valid(), "nope")).status).toBe(404)
  })

  it("counts token requests for benchmarks", async () => {
    const before = (await h.control("GET", "/_sandbox/stats")).body.tokenRequests
    await tokenCall(valid())
    expect((await h.control("GET", "/_sandbox/stats")).body.tokenRequests).toBe(before + 1)
  })
})

describe("sandbox bearer checks on API calls", () => {
  let h: SandboxHarness
  beforeAll(async () => {
    h = await startHarness({ tokenTtlSeconds: 1 })
  })
  afterAll(() => h.close())

  const statusCall = (authorization?: string) =>
    h.raw("GET", "/api/transactions/trx_unknown/status", { headers: { authorization, "content-type": "application/json" } })

  it("gives the documented unauthorized body when the bearer token is missing", async () => {
    const res = await statusCall(undefined)
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "Unauthorized" })
  })

  it("refuses a malformed bearer token", async () => {
    expect((await statusCall("Bearer not-a-jwt")).status).toBe(401)
  })

  it("refuses a token signed by another identity provider", async () => {
    const other = await startHarness()
    try {
      const foreign = await other.fetchToken()
      expect((await statusCall(`Bearer ${foreign}`)).status).toBe(401)
    } finally {
      await other.close()
    }
  })

  it("refuses an expired token", async () => {
    const token = await h.fetchToken()
    const claims = decodeJwt(token)
    // Wait for the clock, not a fixed time: poll until the token's exp has passed.
    const expiresAt = claims.exp! * 1000
    await new Promise<void>((resolve) => {
      const tick = () => (Date.now() > expiresAt + 50 ? resolve() : setTimeout(tick, 50))
      tick()
    })
    expect((await statusCall(`Bearer ${token}`)).status).toBe(401)
  })

  it("refuses tokens issued before a revocation and accepts new ones", async () => {
    const token = await h.fetchToken()
    await h.control("POST", "/_sandbox/tokens/revoke")
    expect((await statusCall(`Bearer ${token}`)).status).toBe(401)
    const fresh = await h.fetchToken()
    expect((await statusCall(`Bearer ${fresh}`)).status).not.toBe(401)
  })
})
