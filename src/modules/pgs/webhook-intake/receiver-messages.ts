/** What the main thread and the receiver's worker thread say to each other (structured-clone values only). */
import type { ClaimedTransaction } from "./refused-by-key"

export type ReceiverWorkerData = {
  host: string
  port: number
  /** The knex `connection` of Medusa's own database connection. */
  connection: unknown
  searchPath: string | string[] | undefined
  webhookPublicKeys: string | null
  /** Why there is no key (answered 503 so the gateway retries, and logged), when there is none. */
  notConfigured: string | null
}

export type ToMain =
  | { type: "listening"; url: string }
  | { type: "failed"; message: string }
  /** New deliveries, gathered per event-loop turn (one message for a batch instead of one per delivery). */
  | { type: "received"; ids: string[] }
  | { type: "log"; level: "warn" | "error"; message: string }
  /** A refused delivery that looks like the gateway's own: the main thread, which holds the gateway client, checks it. */
  | { type: "refused_by_key"; claimed: ClaimedTransaction }

export type ToWorker = { type: "close" }
