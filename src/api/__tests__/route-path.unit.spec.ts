/**
 * The guards' idea of "this request is on route X" against Express's own routing (the express 4 Medusa runs): every
 * spelling Express sends to one of the guarded routes is seen by the guard as that route, whatever its case,
 * trailing slash, absolute form or fragment; spellings a proxy may normalise (double slashes, `%6F`) are seen too.
 */
import express from "express"
import { connect, type AddressInfo } from "node:net"
import { GUARDED_MEDUSA_ROUTES, PLUGIN_ROUTE_PREFIXES } from "../hostile-input"
import { canonicalPath, onRoutes, requestRoutePath } from "../route-path"

const GUARDED = [...PLUGIN_ROUTE_PREFIXES, ...GUARDED_MEDUSA_ROUTES]
/** Routes as Medusa registers them (app[method](path)), one per guarded family. */
const ROUTES = [
  "/store/payment-collections/:id/payment-sessions",
  "/store/pgs/payment-sessions/:id/status",
  "/admin/pgs/orders/:id/gateway",
  "/pgs/pay/:id",
  "/pgs/pay-result",
  "/pgs/carts/:id/pay-check",
  "/hooks/pgs/three-ds/notification",
]
const SPELLINGS = (path: string) => [
  path,
  path.toUpperCase().replace(/PAYSES_X|PAY_COL_X|ORDER_X/g, (id) => id.toLowerCase()),
  path.replace(/^\/(\w)(\w+)/, (_, first: string, rest: string) => `/${first.toUpperCase()}${rest}`),
  `${path}/`,
  `${path}?x=1`,
  `${path}#fragment`,
  `http://attacker.example${path}`,
  `//${path.slice(1)}`,
  path.replace(/\//g, "//"),
  path.replace("o", "%6F").replace("a", "%61"),
  path.replace("/pgs", "/./pgs").replace("/payment-collections", "/x/../payment-collections"),
]

describe("the path every guard compares", () => {
  let port: number
  let server: ReturnType<express.Express["listen"]>
  const seen: { route: string; raw: string; guarded: boolean }[] = []

  beforeAll(async () => {
    const app = express()
    for (const route of ROUTES) app.all(route, (req, res) => void (seen.push({ route, raw: req.originalUrl, guarded: onRoutes(requestRoutePath(req), GUARDED) }), res.json({ route })))
    app.use((_req, res) => void res.status(404).end())
    server = await new Promise((resolve) => {
      const s = app.listen(0, "127.0.0.1", () => resolve(s))
    })
    port = (server.address() as AddressInfo).port
  })

  /** The request target sent byte for byte (an HTTP client would drop the fragment and rewrite an absolute form). */
  const statusOf = (target: string) =>
    new Promise<number>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1", () => socket.end(`POST ${target} HTTP/1.1\r\nHost: shop.example\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`))
      let answer = ""
      socket.on("data", (chunk) => (answer += chunk))
      socket.on("end", () => resolve(Number(answer.split(" ")[1])))
      socket.on("error", reject)
    })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it("sees every spelling Express routes to a guarded route as that route", async () => {
    const concrete = ROUTES.map((route) => route.replace("payment-collections/:id", "payment-collections/pay_col_x").replace("payment-sessions/:id", "payment-sessions/payses_x").replace(/:id/, "order_x"))
    let routed = 0
    for (const path of concrete) {
      for (const spelling of SPELLINGS(path)) {
        if ((await statusOf(spelling)) === 200) routed++
      }
    }
    // Upper case, mixed case, trailing slash, query, fragment and absolute form all reach the route in Express.
    expect(routed).toBeGreaterThanOrEqual(ROUTES.length * 7)
    expect(seen.filter((s) => !s.guarded)).toEqual([])
  })

  it("folds what a proxy in front may normalise, and keeps ids' encoded slashes apart", () => {
    expect(canonicalPath("/St%6Fre//PGS/./payment-sessions/x/../payses_1/status/")).toBe("/store/pgs/payment-sessions/payses_1/status")
    expect(canonicalPath("/store/payment-collections/a%2Fb/payment-sessions")).toBe("/store/payment-collections/a%2fb/payment-sessions")
    expect(onRoutes(canonicalPath("//store//payment-collections/pay_col_1/payment-sessions//"), GUARDED)).toBe(true)
    expect(onRoutes(canonicalPath("/store/pgsx"), GUARDED)).toBe(false)
    expect(onRoutes(canonicalPath("/store/payment-collections/pay_col_1"), GUARDED)).toBe(false)
  })
})
