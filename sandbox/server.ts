/**
 * The sandbox HTTP server: reads each request, applies request hygiene and fault injection to API calls,
 * routes it, and writes the reply. Modules register their routes in `buildRouter`.
 */
import http from "node:http"
import type { AddressInfo, Socket } from "node:net"
import { defaultMerchant, resolveOptions, type ResolvedOptions, type SandboxOptions } from "./core/config"
import { loadKeys } from "./core/keys"
import { SandboxStore } from "./core/store"
import { FaultInjector } from "./core/faults"
import { checkHygiene, issueToken } from "./core/auth"
import { json, ReplyError, Router, type Reply, type SandboxRequest } from "./core/http"
import { newId } from "./core/ids"
import type { SandboxContext } from "./core/context"
import type { Merchant } from "./core/types"
import { WebhookDispatcher } from "./webhooks/dispatcher"
import { PayoutSettler } from "./apm/payout-settle"
import { eventNameFor, transactionPayload } from "./webhooks/events"
import { registerControlRoutes, sandboxConfig, type SandboxConfigView } from "./controls"
import { authorize } from "./api/authorize"
import { registerCardRoutes } from "./cards/routes"
import { registerMerchantApiRoutes } from "./api/routes"
import { registerApmRoutes } from "./apm/routes"
import { registerEmbeddedRoutes } from "./embedded/routes"
import { registerPages } from "./pages/routes"
import { readStateFile } from "./state/state-file"
import { applySnapshot } from "./state/snapshot"
import { StatePersister } from "./state/persister"

export type RunningSandbox = {
  url: string
  config: SandboxConfigView
  context: SandboxContext
  close(): Promise<void>
}

const MAX_BODY_BYTES = 1024 * 1024

export function createContext(options: ResolvedOptions, fixedKeys: SandboxOptions["keys"]): SandboxContext {
  const keys = loadKeys(fixedKeys)
  const faults = new FaultInjector()
  const merchants = new Map<string, Merchant>()
  const urls = { base: "", auth: "" }
  const store = new SandboxStore()
  const ctx: SandboxContext = {
    options,
    keys,
    store,
    merchants,
    merchantByClientId: (id) => [...merchants.values()].find((m) => m.client_id === id),
    merchantByClientKey: (key) => [...merchants.values()].find((m) => m.client_key === key),
    urls,
    webhooks: new WebhookDispatcher(keys.webhook, () => urls.base, options.webhookTimeScale, faults),
    faults,
    payouts: new PayoutSettler(store, () => options.payoutSettleAfterMs),
    stats: { tokenRequests: 0, requests: {} },
    revokedBefore: 0,
  }
  // Every status change of a transaction sends its webhook (CREATED sends none).
  ctx.store.onStatusChange(({ transaction }) => {
    const event = eventNameFor(transaction, ctx.options.eventNames)
    if (event) ctx.webhooks.send(transaction.merchant_id, transaction.id, { event, payload: transactionPayload(transaction) })
  })
  return ctx
}

export function buildRouter(ctx: SandboxContext): Router {
  const router = new Router()
  router.add("POST", "/auth/realms/:realm/protocol/openid-connect/token", (req) => issueToken(ctx, req), "auth")
  router.add("POST", "/api/transactions/authorize", (req) => authorize(ctx, req), "api")
  registerCardRoutes(router, ctx)
  registerMerchantApiRoutes(router, ctx)
  registerApmRoutes(router, ctx)
  registerEmbeddedRoutes(router, ctx)
  registerPages(router, ctx)
  registerControlRoutes(router, ctx)
  return router
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function readBody(req: http.IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new ReplyError(json(413, { error: "Payload Too Large" }))
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/**
 * Every answer says how long the sandbox spent on it (`Server-Timing: app;dur=<ms>`, from reading the request to
 * writing the answer), so a benchmark can tell the gateway's own work from the round trip and the caller's.
 */
function write(res: http.ServerResponse, reply: Reply, requestId: string, startedAt: number): void {
  if (res.destroyed) return
  const dur = (performance.now() - startedAt).toFixed(2)
  res.writeHead(reply.status, { "x-request-id": requestId, "server-timing": `app;dur=${dur}`, ...reply.headers })
  res.end(reply.body)
}

export function handler(ctx: SandboxContext, router: Router) {
  return async (incoming: http.IncomingMessage, res: http.ServerResponse) => {
    const startedAt = performance.now()
    const requestId = newId("req")
    const url = new URL(incoming.url ?? "/", ctx.urls.base || "http://localhost")
    const method = incoming.method ?? "GET"
    let reply: Reply
    try {
      const rawBody = await readBody(incoming)
      const found = router.match(method, url.pathname)
      if (!found) return write(res, json(404, { error: "Not Found", path: url.pathname }), requestId, startedAt)
      if (!("route" in found)) return write(res, json(405, { error: "Method Not Allowed", allowed: found.allowed }), requestId, startedAt)
      const { route, params } = found
      const req: SandboxRequest = {
        method,
        url,
        path: url.pathname,
        headers: incoming.headers,
        rawBody,
        params,
        remoteAddress: incoming.socket.remoteAddress?.replace(/^::ffff:/, "") ?? "127.0.0.1",
      }
      const target = `${method} ${route.pattern}`
      ctx.stats.requests[target] = (ctx.stats.requests[target] ?? 0) + 1
      if (ctx.options.log) console.log(`${method} ${url.pathname}`)
      if (route.kind !== "public") {
        checkHygiene(req, route.kind === "auth" ? "application/x-www-form-urlencoded" : "application/json")
        const before = ctx.faults.take(target, "before")
        if (before && (await applyFault(before, res, incoming.socket, requestId, startedAt))) return
      }
      reply = await route.handler(req)
      if (route.kind !== "public") {
        const after = ctx.faults.take(target, "after")
        if (after && (await applyFault(after, res, incoming.socket, requestId, startedAt))) return
      }
    } catch (error) {
      if (error instanceof ReplyError) reply = error.reply
      else {
        console.error("[sandbox] unexpected error", error)
        reply = json(500, { error: "Internal Server Error" })
      }
    }
    write(res, reply, requestId, startedAt)
  }
}

function faultReply(status: number): Reply {
  if (status === 429) return { ...json(429, { error: "Too Many Requests" }), headers: { "content-type": "application/json", "retry-after": "1" } }
  // A 401 as the identity provider's would look: for testing a token refused again after renewal.
  if (status === 401) return json(401, { error: "Unauthorized" })
  return json(status, { error: "Service Unavailable" })
}

/** Returns true when the fault answered (or dropped) the request itself. */
async function applyFault(
  rule: { kind: string; latency_ms: number; status: number },
  res: http.ServerResponse,
  socket: Socket,
  requestId: string,
  startedAt: number,
): Promise<boolean> {
  switch (rule.kind) {
    case "latency":
      await sleep(rule.latency_ms)
      return false
    case "status":
      write(res, faultReply(rule.status), requestId, startedAt)
      return true
    case "drop":
      socket.destroy()
      return true
    case "garble":
      // A 2xx whose body matches nothing in the spec: the client must not read it as success or failure.
      write(res, json(200, { unexpected: true }), requestId, startedAt)
      return true
    case "timeout":
      // Hold the connection without answering; the client's timeout should fire first.
      await Promise.race([sleep(rule.latency_ms), new Promise((r) => socket.once("close", r))])
      socket.destroy()
      return true
    default:
      return false
  }
}

export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  const resolved = resolveOptions(options)
  // Read first: a damaged state file stops the start before anything listens or is written.
  const saved = options.stateDir ? readStateFile(options.stateDir) : null
  const ctx = createContext(resolved, options.keys)
  const router = buildRouter(ctx)
  const persister = options.stateDir ? new StatePersister(options.stateDir, ctx) : null
  const handle = handler(ctx, router)
  // Every request may change state (pages and controls too): the persister writes only when it did.
  const server = http.createServer({ keepAliveTimeout: 30_000 }, (req, res) => void handle(req, res).finally(() => persister?.changed()))
  const sockets = new Set<Socket>()
  server.on("connection", (s) => {
    sockets.add(s)
    s.on("close", () => sockets.delete(s))
  })
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject)
    server.listen(resolved.port, resolved.host, () => resolve())
  })
  const { port } = server.address() as AddressInfo
  const host = resolved.host === "0.0.0.0" || resolved.host === "::" ? "localhost" : resolved.host
  ctx.urls.base = `http://${host.includes(":") ? `[${host}]` : host}:${port}`
  ctx.urls.auth = `${ctx.urls.base}/auth`
  const merchant = defaultMerchant(resolved, ctx.urls.base)
  ctx.merchants.set(merchant.merchant_id, merchant)
  if (persister) {
    if (saved) applySnapshot(ctx, saved)
    persister.loaded()
    ctx.store.onStatusChange(() => persister.changed())
    ctx.webhooks.onChange = () => persister.changed()
  }
  return {
    url: ctx.urls.base,
    config: sandboxConfig(ctx),
    context: ctx,
    close: async () => {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      persister?.stop() // before the webhooks' close empties their queue
      ctx.webhooks.close()
      ctx.payouts.stop()
    },
  }
}
