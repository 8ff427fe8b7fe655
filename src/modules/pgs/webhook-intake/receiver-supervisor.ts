/**
 * Keeps the dedicated webhook receiver running for the pgs module: starts its thread (receiver-thread.ts), says
 * clearly when it cannot (Medusa swallows errors from module start hooks), starts it again after a crash, and
 * stops it for good at shutdown.
 */
import type { Logger } from "@medusajs/framework/types"
import { startWebhookReceiverThread, type ReceiverStart, type WebhookReceiver } from "./receiver-thread"

export type SupervisedReceiver = {
  /** The running receiver (its webhook URL) while its thread is listening, else null. */
  readonly current: WebhookReceiver | null
  /** Settles once the first start has listened or failed (a failure is logged, never thrown). */
  readonly ready: Promise<void>
  /** Stops the receiver (answering deliveries in flight) and any restart that is waiting. */
  stop(): Promise<void>
}

type Supervision = {
  /** What the thread needs; asked again for each start. */
  start(): Omit<ReceiverStart, "stopped">
  logger: Logger
  /** The pause before a crashed receiver is started again (the gateway retries what failed meanwhile). */
  restartAfterMs?: number
}

export function superviseWebhookReceiver({ start, logger, restartAfterMs = 5_000 }: Supervision): SupervisedReceiver {
  let receiver: WebhookReceiver | null = null
  let restartTimer: NodeJS.Timeout | null = null
  let starting: Promise<void> | null = null
  let stopping = false
  let crashed = false

  const restartLater = () => {
    receiver = null
    crashed = true
    if (stopping) return
    restartTimer = setTimeout(() => {
      restartTimer = null
      starting = run()
    }, restartAfterMs)
    restartTimer.unref()
  }

  async function run(): Promise<void> {
    try {
      receiver = await startWebhookReceiverThread({ ...start(), stopped: restartLater })
    } catch (error) {
      const message = (error as Error).message
      // Medusa also runs module start hooks in CLI commands (medusa exec, user, db:migrate's scripts) and in every
      // cluster process: the port is then the running server's. Not an error for this process, but worth a line.
      if (message.includes("EADDRINUSE")) logger.warn(`medusa-payment-pgs: the webhook receiver's port is taken (${message}); this process does not receive webhooks, the one listening there does`)
      else logger.error(`medusa-payment-pgs: the webhook receiver did not start: ${message}`)
      // At boot a failure is reported and left (a configuration to fix, or another process's port); after a crash
      // the receiver keeps being started again (a database that is briefly away).
      if (crashed) restartLater()
      return
    }
    logger.info(`medusa-payment-pgs: webhook receiver listening at ${receiver.url}`)
  }

  starting = run()
  return {
    ready: starting,
    get current() {
      return receiver
    },
    async stop() {
      stopping = true
      if (restartTimer) clearTimeout(restartTimer)
      // A start under way finishes first, so what it started is closed too.
      await starting
      await receiver?.close()
      receiver = null
    },
  }
}
