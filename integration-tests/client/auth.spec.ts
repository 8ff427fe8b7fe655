/** The client's token handling against the sandbox identity provider: caching, renewal, single-flight, 401 replay. */
import { GatewayUnauthorizedError, type GatewayLogEntry } from "../../src/gateway"
import { startHarness, waitFor, type SandboxHarness } from "../support/sandbox"
import { caught, clientFor, stats } from "./support"

let h: SandboxHarness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

describe("client authentication", () => {
  it("fetches one token and reuses it across calls", async () => {
    const client = clientFor(h)
    const before = (await stats(h)).tokenRequests
    for (let i = 0; i < 5; i++) expect((await client.status.retrieve("trx_unknown")).found).toBe(false)
    expect((await stats(h)).tokenRequests - before).toBe(1)
    expect(client.tokenRequests).toBe(1)
    await client.close()
  })

  it("renews the token before expires_in elapses when the lifetime is short", async () => {
    const short = await startHarness({ tokenTtlSeconds: 2 })
    const entries: GatewayLogEntry[] = []
    const client = clientFor(short, { logger: (e) => entries.push(e) })
    try {
      await client.status.retrieve("trx_x")
      expect(client.tokenRequests).toBe(1)
      // Keep calling until the client has renewed on its own; no call may see a 401 meanwhile.
      await waitFor(async () => (await client.status.retrieve("trx_x")) && client.tokenRequests >= 3, { timeoutMs: 10_000, intervalMs: 50, what: "two renewals" })
      const s = await stats(short)
      expect(s.tokenRequests).toBe(client.tokenRequests)
      expect(s.requests["GET /api/transactions/:id/status"]).toBeGreaterThan(3)
      // Renewed ahead of expiry: never through a 401 replay.
      expect(entries.filter((e) => e.statusCode === 401)).toEqual([])
    } finally {
      await client.close()
      await short.close()
    }
  })

  it("makes exactly one token request for 200 concurrent calls that find no token", async () => {
    const client = clientFor(h)
    const before = (await stats(h)).tokenRequests
    const results = await Promise.all(Array.from({ length: 200 }, () => client.status.retrieve("trx_none")))
    expect(results.every((r) => r.found === false)).toBe(true)
    expect((await stats(h)).tokenRequests - before).toBe(1)
    expect(client.tokenRequests).toBe(1)
    await client.close()
  })

  it("renews the token once and replays the call once after a 401", async () => {
    const client = clientFor(h)
    await client.status.retrieve("trx_a")
    await h.control("POST", "/_sandbox/tokens/revoke")
    const before = await stats(h)
    const res = await client.status.retrieve("trx_a")
    expect(res.found).toBe(false)
    const after = await stats(h)
    expect(after.tokenRequests - before.tokenRequests).toBe(1)
    // The refused call and its replay.
    expect(after.requests["GET /api/transactions/:id/status"] - before.requests["GET /api/transactions/:id/status"]).toBe(2)
    expect(client.tokenRequests).toBe(2)
    await client.close()
  })

  it("gives up with an unauthorized error when the replay after renewal is refused again", async () => {
    const client = clientFor(h)
    await client.status.retrieve("trx_c")
    await h.control("POST", "/_sandbox/faults", { target: "GET /api/transactions/:id/status", kind: "status", status: 401, count: 2 })
    const before = await stats(h)
    const error = await caught(client.status.retrieve("trx_c"))
    expect(error).toBeInstanceOf(GatewayUnauthorizedError)
    const after = await stats(h)
    // One renewal and one replay, no more.
    expect(after.tokenRequests - before.tokenRequests).toBe(1)
    expect(after.requests["GET /api/transactions/:id/status"] - before.requests["GET /api/transactions/:id/status"]).toBe(2)
    await client.close()
  })

  it("concurrent calls that all get a 401 share one renewal", async () => {
    const client = clientFor(h)
    await client.status.retrieve("trx_b")
    await h.control("POST", "/_sandbox/tokens/revoke")
    const before = (await stats(h)).tokenRequests
    await Promise.all(Array.from({ length: 20 }, () => client.status.retrieve("trx_b")))
    expect((await stats(h)).tokenRequests - before).toBe(1)
    await client.close()
  })

  it("reports wrong client credentials as unauthorized without echoing the secret", async () => {
    const secret = "wrong-secret-value-123"
    const client = clientFor(h, { clientSecret: secret })
    const error = await caught(client.status.retrieve("trx_c"))
    expect(error).toBeInstanceOf(GatewayUnauthorizedError)
    expect(error.statusCode).toBe(401)
    expect(error.message).toMatch(/client credentials/)
    expect(`${error.message} ${JSON.stringify(error)} ${String(error.stack)}`).not.toContain(secret)
    await client.close()
  })

  it("keeps two clients with different credentials apart in one process", async () => {
    const other = await startHarness()
    const a = clientFor(h)
    const b = clientFor(other)
    try {
      await Promise.all([a.status.retrieve("x"), b.status.retrieve("x"), a.status.retrieve("y"), b.status.retrieve("y")])
      expect([a.tokenRequests, b.tokenRequests]).toEqual([1, 1])
      // b's token is refused by h's gateway: each client only ever sends its own.
      const [tokenA, tokenB] = [await a.accessToken(), await b.accessToken()]
      expect(tokenA).not.toBe(tokenB)
      expect((await h.raw("GET", "/api/transactions/x/status", { headers: { authorization: `Bearer ${tokenB}`, "content-type": "application/json" } })).status).toBe(401)
    } finally {
      await Promise.all([a.close(), b.close(), other.close()])
    }
  })
})
