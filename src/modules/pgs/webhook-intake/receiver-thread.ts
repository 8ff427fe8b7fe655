/**
 * Starts the dedicated webhook receiver (option `webhookReceiver`) in a worker thread and relays what it reports:
 * new deliveries become our own events on Medusa's event bus (in this thread, where the event bus lives) once a
 * burst is answered (after-burst.ts), its logs go to Medusa's logger.
 */
import path from "node:path"
import { Worker } from "node:worker_threads"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { Logger } from "@medusajs/framework/types"
import type { WebhookReceiverOptions } from "../options"
import type { ReceiverWorkerData, ToMain, ToWorker } from "./receiver-messages"
import type { ClaimedTransaction } from "./refused-by-key"
import { afterBurst } from "./after-burst"

export type WebhookReceiver = {
  url: string
  /** Answers the deliveries in flight (at most 5 s), then stops the thread. */
  close(): Promise<void>
  /** Ends the thread at once, deliveries in flight unanswered, as a crash does (`stopped` is called). */
  terminate(): Promise<void>
}

export type ReceiverStart = {
  settings: WebhookReceiverOptions
  /** Medusa's database connection: the worker opens its own pool with the same settings. */
  knex: Knex
  webhookPublicKeys: string | null
  notConfigured: string | null
  logger: Logger
  /** New deliveries, handed on to processing after a burst; reports its own failures (never rejects). */
  received(ids: string[]): Promise<void>
  /** A refused delivery that looks like the gateway's own, for the main thread to check (WebhookIntake.refusedByKey). */
  refusedByKey(claimed: ClaimedTransaction): void
  /** The thread stopped on its own after it was listening (a crash): the caller may start another. */
  stopped?(): void
}

function spawnWorker(workerData: ReceiverWorkerData): Worker {
  const entry = path.join(__dirname, `receiver-worker${path.extname(__filename)}`)
  // Running from the TypeScript sources (tests, the demo), the worker needs a TypeScript loader as well.
  if (entry.endsWith(".ts"))
    return new Worker(`require(${JSON.stringify(require.resolve("tsx/cjs"))}); require(${JSON.stringify(entry)})`, { eval: true, workerData })
  return new Worker(entry, { workerData })
}

function workerDataFor(start: ReceiverStart): ReceiverWorkerData {
  const config = (start.knex as unknown as { client: { config: { connection: unknown; searchPath?: string | string[] } } }).client.config
  return {
    host: start.settings.host,
    port: start.settings.port,
    connection: config.connection,
    searchPath: config.searchPath,
    webhookPublicKeys: start.webhookPublicKeys,
    notConfigured: start.notConfigured,
  }
}

/** The worker, or a clear error when its data cannot be sent to a thread (the Worker constructor clones it). */
function startWorker(start: ReceiverStart): Worker {
  try {
    return spawnWorker(workerDataFor(start))
  } catch (error) {
    if ((error as Error).name !== "DataCloneError") throw error
    throw new Error(
      "the database connection options hold functions (driverOptions.dynamicPassword or expirationChecker), which the receiver's worker thread cannot be given; unset PGS_WEBHOOK_RECEIVER_PORT and let the gateway post to /hooks/pgs/webhooks on the Medusa server",
    )
  }
}

export async function startWebhookReceiverThread(start: ReceiverStart): Promise<WebhookReceiver> {
  const worker = startWorker(start)
  // The worker must not keep a process alive that Medusa is done with; shutdown closes it properly.
  worker.unref()
  let closing = false
  let listening = false
  let hasExited = false
  const exited = new Promise<number>((resolve) =>
    worker.once("exit", (code) => {
      hasExited = true
      resolve(code)
    }),
  )
  const received = afterBurst(start.received)
  const url = await new Promise<string>((resolve, reject) => {
    worker.on("message", (message: ToMain) => {
      if (message.type === "listening") {
        listening = true
        resolve(message.url)
      } else if (message.type === "failed") reject(new Error(message.message))
      else if (message.type === "received") received.add(message.ids)
      else if (message.type === "refused_by_key") start.refusedByKey(message.claimed)
      else start.logger[message.level](message.message)
    })
    worker.on("error", (error) => {
      reject(error)
      if (listening) start.logger.error(`medusa-payment-pgs: the webhook receiver failed: ${error.message}`)
    })
    void exited.then(async (code) => {
      reject(new Error(`the receiver's thread stopped (exit code ${code})`))
      if (!listening || closing) return
      start.logger.error(`medusa-payment-pgs: the webhook receiver stopped (exit code ${code}); deliveries meanwhile fail and the gateway retries them`)
      // The restart does not wait for the hand-on (an event bus that stalls must not keep the receiver down).
      start.stopped?.()
      await received.flushNow()
    })
  }).catch(async (error) => {
    closing = true
    await worker.terminate()
    throw error
  })
  return {
    url,
    close: async () => {
      closing = true
      if (!hasExited) {
        worker.postMessage({ type: "close" } satisfies ToWorker)
        // A clean close ends the worker's event loop; one that hangs is stopped.
        const timer = setTimeout(() => void worker.terminate(), 5_000)
        await exited
        clearTimeout(timer)
      }
      await received.flushNow()
    },
    terminate: async () => {
      await worker.terminate()
      await exited
    },
  }
}
