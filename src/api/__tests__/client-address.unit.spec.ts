import { createServer, request, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { clientAddress, type TrustedProxies } from "../client-address"
import { pgsOptionsFromEnv } from "../../config"
import { parseOptions } from "../../modules/pgs/options"

/** A real server on a free port that answers what clientAddress made of each request. */
async function serverTrusting(proxies: TrustedProxies): Promise<{ server: Server; ask: (forwardedFor?: string) => Promise<string> }> {
  const server = createServer((req, res) => res.end(clientAddress(req, proxies) ?? "none"))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  const ask = (forwardedFor?: string) =>
    new Promise<string>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, headers: forwardedFor ? { "x-forwarded-for": forwardedFor } : {} }, (res) => {
        let body = ""
        res.on("data", (chunk) => (body += chunk))
        res.on("end", () => resolve(body))
      })
      req.on("error", reject)
      req.end()
    })
  return { server, ask }
}

describe("the shopper's address", () => {
  const servers: Server[] = []
  afterAll(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))))
  const trusting = async (proxies: TrustedProxies) => {
    const made = await serverTrusting(proxies)
    servers.push(made.server)
    return made.ask
  }

  it("is the connection's own address when no proxy is configured, whatever X-Forwarded-For the client wrote", async () => {
    const ask = await trusting(0)
    expect(await ask()).toBe("127.0.0.1")
    expect(await ask("203.0.113.9")).toBe("127.0.0.1")
    expect(await ask("198.51.100.23, 203.0.113.9")).toBe("127.0.0.1")
  })

  it("is the address the last trusted hop saw: one hop takes the last entry, two hops (a CDN plus a balancer) the one before", async () => {
    const oneHop = await trusting(1)
    expect(await oneHop("198.51.100.23, 203.0.113.9")).toBe("203.0.113.9")
    const twoHops = await trusting(2)
    expect(await twoHops("198.51.100.23, 203.0.113.9, 10.0.0.5")).toBe("203.0.113.9")
    // Fewer entries than hops: the farthest one there is.
    expect(await twoHops()).toBe("127.0.0.1")
  })

  it("believes only the proxies named by address or range: an untrusted hop in the chain is the client", async () => {
    const ask = await trusting(["loopback", "10.0.0.0/8"])
    expect(await ask("198.51.100.23, 203.0.113.9, 10.1.2.3")).toBe("203.0.113.9")
    const strangers = await trusting(["10.0.0.0/8"])
    // The socket (127.0.0.1) is not a named proxy: its address is the client's.
    expect(await strangers("203.0.113.9")).toBe("127.0.0.1")
  })

  it("is configured with trustedProxies (PGS_TRUSTED_PROXIES), a number of hops or a list, checked at boot", () => {
    const env = {
      PGS_API_URL: "https://api.pgs.example",
      PGS_AUTH_URL: "https://auth.pgs.example",
      PGS_REALM: "uat",
      PGS_CLIENT_ID: "id",
      PGS_CLIENT_SECRET: "secret",
      PGS_CLIENT_KEY: "key",
      PGS_TERMINAL_ID: "TERM-001",
      PGS_STORE_URL: "https://shop.example",
      PGS_BACKEND_URL: "https://api.shop.example",
    }
    expect(parseOptions(pgsOptionsFromEnv(env)).trustedProxies).toBe(0)
    expect(parseOptions(pgsOptionsFromEnv({ ...env, PGS_TRUSTED_PROXIES: "2" })).trustedProxies).toBe(2)
    expect(parseOptions(pgsOptionsFromEnv({ ...env, PGS_TRUSTED_PROXIES: "10.0.0.0/8, loopback" })).trustedProxies).toEqual(["10.0.0.0/8", "loopback"])
    expect(() => parseOptions(pgsOptionsFromEnv({ ...env, PGS_TRUSTED_PROXIES: "10.0.0.0/8,cloudflare" }))).toThrow(
      /- trustedProxies holds something that is not an IP address, a CIDR or loopback\/linklocal\/uniquelocal: leave PGS_TRUSTED_PROXIES unset/,
    )
    expect(() => parseOptions({ ...pgsOptionsFromEnv(env), trustedProxies: -1 })).toThrow(/- trustedProxies /)
  })
})
