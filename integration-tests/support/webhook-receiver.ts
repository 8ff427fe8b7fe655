/** A local HTTP endpoint that records every webhook delivery (raw bytes and headers) and answers as told. */
import http from "node:http"
import type { AddressInfo } from "node:net"

export type ReceivedWebhook = { headers: http.IncomingHttpHeaders; raw: Buffer; body: any; at: number }

export async function startWebhookReceiver(answer: (hit: ReceivedWebhook, index: number) => number = () => 200) {
  const received: ReceivedWebhook[] = []
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = []
    for await (const c of req) chunks.push(c as Buffer)
    const raw = Buffer.concat(chunks)
    let body: unknown
    try {
      body = JSON.parse(raw.toString("utf8"))
    } catch {
      body = undefined
    }
    const hit = { headers: req.headers, raw, body, at: Date.now() }
    received.push(hit)
    res.writeHead(answer(hit, received.length - 1)).end()
  })
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  }
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>
