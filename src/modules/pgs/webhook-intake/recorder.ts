/**
 * Records webhook deliveries in batches: the deliveries that arrive while one INSERT is in flight go together in
 * the next (one statement, one pool connection, one commit). In a burst the route then needs one database
 * connection instead of one per request — measured, the per-request inserts waited for a pool connection most of
 * the acknowledgement time. Each delivery is still answered only after the commit that holds its row.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import type { NewWebhookEvent, RecordedWebhookEvent } from "../webhook-event-record"
import { insertDeliveries } from "../webhook-queue"

type Waiting = { entry: NewWebhookEvent; receivedAt: Date; resolve(r: RecordedWebhookEvent): void; reject(e: unknown): void }

const MAX_BATCH = 200

const row = (w: Waiting) => ({ ...w.entry, received_at: w.receivedAt })

class DeliveryRecorder {
  private waiting: Waiting[] = []
  private flushing = false

  constructor(private readonly knex: Knex) {}

  record(entry: NewWebhookEvent): Promise<RecordedWebhookEvent> {
    return new Promise((resolve, reject) => {
      // Arrival time, not batch time: processing follows received_at for events about one payment.
      this.waiting.push({ entry, receivedAt: new Date(), resolve, reject })
      if (!this.flushing) void this.flush()
    })
  }

  private async flush(): Promise<void> {
    this.flushing = true
    try {
      while (this.waiting.length) {
        const batch = this.waiting.splice(0, MAX_BATCH)
        try {
          const results = await insertDeliveries(this.knex, batch.map(row))
          batch.forEach((w, i) => w.resolve(results[i]!))
        } catch (error) {
          if (batch.length === 1) batch[0]!.reject(error)
          // One delivery the database refuses (e.g. a NUL in its JSON) must not fail the others: each on its own.
          else await Promise.all(batch.map((w) => insertDeliveries(this.knex, [row(w)]).then(([r]) => w.resolve(r!), w.reject)))
        }
      }
    } finally {
      this.flushing = false
    }
  }
}

const recorders = new WeakMap<Knex, DeliveryRecorder>()

/** Record one delivery once (its delivery_key is unique), batched with the deliveries arriving alongside it. */
export function recordDelivery(knex: Knex, entry: NewWebhookEvent): Promise<RecordedWebhookEvent> {
  let recorder = recorders.get(knex)
  if (!recorder) recorders.set(knex, (recorder = new DeliveryRecorder(knex)))
  return recorder.record(entry)
}
