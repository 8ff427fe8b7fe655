/**
 * The load balancer in front of the demo's and the drills' servers: Node's own http, each request piped whole to
 * the next upstream in turn (no health checks, no stickiness, no retries: what a plain round-robin balancer
 * does). An upstream that is down answers 502, as nginx or a cloud balancer would, so a drill sees what a
 * shopper would see while a server is dead. One rule beside the turn: `pinned` paths always go to the first
 * upstream — the dashboard under /app, which in development each server serves from a Vite dev server of its own
 * (its module URLs carry that server's start time, so pieces from two servers never make one page). A store's
 * built dashboard is the same on every server and needs no such rule (docs/production.md).
 */
import http from "node:http"
import net, { type AddressInfo } from "node:net"

/** `answered`: 2xx answers per upstream (its URL), so a drill can tell which servers did the work. */
export type RoundRobin = { url: string; port: number; answered: Record<string, number>; close(): Promise<void> }

export function startRoundRobin(upstreams: () => string[], port = 0, host = "127.0.0.1", pinned = (_path: string) => false): Promise<RoundRobin> {
  let turn = 0
  const answered: Record<string, number> = {}
  const next = (path = "") => {
    const list = upstreams()
    return pinned(path) ? list[0]! : list[turn++ % list.length]!
  }
  const server = http.createServer((req, res) => {
    const upstream = next(req.url)
    const target = new URL(upstream)
    const forward = http.request(
      { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
      (answer) => {
        const status = answer.statusCode ?? 502
        if (status >= 200 && status < 300) answered[upstream] = (answered[upstream] ?? 0) + 1
        res.writeHead(status, answer.headers)
        answer.pipe(res)
      },
    )
    forward.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "application/json" })
      res.end(JSON.stringify({ type: "bad_gateway", message: `upstream ${target.host} did not answer` }))
    })
    req.pipe(forward)
  })
  // WebSocket upgrades (the dashboard's Vite client in development) are piped to the next upstream as bytes.
  server.on("upgrade", (req, socket, head) => {
    const target = new URL(next(req.url))
    const upstream = net.connect(Number(target.port), target.hostname, () => {
      const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${k === "host" ? target.host : Array.isArray(v) ? v.join(", ") : v}`)
      upstream.write(`${req.method} ${req.url} HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n`)
      upstream.write(head)
      socket.pipe(upstream).pipe(socket)
    })
    upstream.on("error", () => socket.destroy())
    socket.on("error", () => upstream.destroy())
  })
  server.keepAliveTimeout = 5_000
  return new Promise((resolve) =>
    server.listen(port, host, () => {
      const got = (server.address() as AddressInfo).port
      resolve({
        url: `http://${host === "0.0.0.0" ? "localhost" : host}:${got}`,
        port: got,
        answered,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      })
    }),
  )
}
