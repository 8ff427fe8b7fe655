/**
 * The dedicated webhook receiver's HTTP server: bare node:http on its own port that does only what a delivery
 * needs (accept.ts) and nothing of Medusa's request stack. Why: measured in bench:checkout, Medusa's per-request
 * handling (express routing over every route, request logging, cookie and session middleware, the request scope)
 * costs ~2 ms of CPU per delivery, so a burst at the gateway's concurrency queues past 100 ms on a small machine.
 * It runs in a worker thread (receiver-thread.ts), so checkouts and event processing on Medusa's event loop do not
 * delay answers either. Same URL path as the Medusa route, so a proxy can forward it unchanged.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { Logger } from "@medusajs/framework/types"
import type { WebhookAnswer } from "./accept"
import { serverTiming } from "./stages"

export const WEBHOOK_PATH = "/hooks/pgs/webhooks"

export type WebhookServer = { url: string; close(): Promise<void> }

type ReceiverSettings = {
  host: string
  port: number
  logger: Pick<Logger, "error">
  accept(req: IncomingMessage): Promise<WebhookAnswer>
}

function send(res: ServerResponse, status: number, body: unknown, headers?: Record<string, string>) {
  const json = JSON.stringify(body)
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(json), ...headers })
  res.end(json)
}

export async function startWebhookServer(settings: ReceiverSettings): Promise<WebhookServer> {
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "").split("?")[0]
    // For a load balancer's health check.
    if (path === "/health" && req.method === "GET") return send(res, 200, { ok: true })
    if (path !== WEBHOOK_PATH) return send(res, 404, { error: `Only POST ${WEBHOOK_PATH} is served here` })
    if (req.method !== "POST") return send(res, 405, { error: "Webhooks are POSTed" }, { allow: "POST" })
    let answer: WebhookAnswer
    try {
      answer = await settings.accept(req)
    } catch (error) {
      // Not recorded: a 5xx makes the gateway send it again.
      settings.logger.error(`PGS webhook receiver could not take a delivery: ${(error as Error).message}`)
      return send(res, 500, { error: "The delivery could not be recorded; send it again" })
    }
    send(res, answer.status, answer.body, answer.stages && { "server-timing": serverTiming(answer.stages) })
    await answer.afterAnswer?.()
  })
  // A delivery is small: a client that trickles its request is cut off instead of holding a socket.
  server.requestTimeout = 30_000
  server.headersTimeout = 10_000

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject)
      resolve()
    })
  })
  const address = server.address() as AddressInfo
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address
  return {
    url: `http://${host}:${address.port}${WEBHOOK_PATH}`,
    // Deliveries being handled are answered first (at most 3 s); idle keep-alive connections close at once.
    close: () =>
      new Promise<void>((resolve) => {
        const deadline = setTimeout(() => server.closeAllConnections(), 3_000)
        server.close(() => {
          clearTimeout(deadline)
          resolve()
        })
        server.closeIdleConnections()
      }),
  }
}
