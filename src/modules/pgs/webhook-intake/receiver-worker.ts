/**
 * The dedicated webhook receiver's worker thread: its own event loop, its own small database pool, the same
 * accept.ts steps as the Medusa route. The main thread (receiver-thread.ts) gets the ids of new deliveries (one
 * message per event-loop turn) and emits our events there; logs go to the main thread's logger. Nothing here
 * touches Medusa's container.
 */
import { parentPort, workerData } from "node:worker_threads"
import { knex as createKnex, type Knex } from "@medusajs/framework/mikro-orm/knex"
import { WebhookVerifier } from "../../../gateway/webhooks"
import { acceptWebhookRequest, type WebhookIntake } from "./accept"
import { startWebhookServer } from "./receiver"
import type { ReceiverWorkerData, ToMain, ToWorker } from "./receiver-messages"

const data = workerData as ReceiverWorkerData
const port = parentPort!
const post = (message: ToMain) => port.postMessage(message)
let receivedIds: string[] = []
function postReceived() {
  if (receivedIds.length) post({ type: "received", ids: receivedIds })
  receivedIds = []
}
function received(id: string) {
  if (!receivedIds.length) setImmediate(postReceived)
  receivedIds.push(id)
}
const logger = {
  warn: (message: string) => post({ type: "log", level: "warn", message }),
  error: (message: string) => post({ type: "log", level: "error", message }),
}

async function main() {
  // Two connections: recording is batched (one INSERT in flight per batch), the second covers a duplicate lookup.
  const knex = createKnex({
    client: "pg",
    connection: data.connection as Knex.StaticConnectionConfig,
    searchPath: data.searchPath,
    pool: { min: 1, max: 2 },
    // An unreachable database fails the start (and a delivery) in seconds, not knex's default minute.
    acquireConnectionTimeout: 10_000,
  })
  // The database is reachable before the port is opened (and the first delivery does not wait for a connection).
  await knex.raw("select 1")
  const verifier = data.webhookPublicKeys ? new WebhookVerifier({ publicKeys: data.webhookPublicKeys }) : null
  const intake: WebhookIntake = {
    verifier: () => {
      if (!verifier) throw new Error(data.notConfigured ?? "no webhook public key")
      return verifier
    },
    knex,
    logger,
    received: async (id) => received(id),
    refusedByKey: (claimed) => post({ type: "refused_by_key", claimed }),
  }
  const server = await startWebhookServer({ host: data.host, port: data.port, logger, accept: (req) => acceptWebhookRequest(req, intake) })
  port.on("message", async (message: ToWorker) => {
    if (message.type !== "close") return
    await server.close()
    postReceived()
    await knex.destroy()
    port.close()
  })
  post({ type: "listening", url: server.url })
}

main().catch((error) => post({ type: "failed", message: (error as Error).message }))
