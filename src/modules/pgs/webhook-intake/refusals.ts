/**
 * Deliveries whose signature does not verify, told to the shop admin: a wrong PGS_WEBHOOK_PUBLIC_KEY otherwise
 * shows only as a warning per delivery in the log while the gateway retries for 24 hours. One follow-up
 * (key `webhooks-refused`) counts them and keeps the last time; it is open ("Needs attention") until a delivery
 * verifies again.
 *
 * Refusals are counted in memory and written at most once a second per process (and per database pool: the
 * dedicated receiver's thread has its own), so a flood of forged requests costs one UPDATE a second, not one each.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import { FOLLOW_UP_TABLE } from "../models/follow-up"

export const REFUSED_KEY = "webhooks-refused"
const FLUSH_AFTER_MS = 1_000
/** A verified delivery closes the item; checking for an open one at most this often. */
const CLEAR_EVERY_MS = 5_000

type Logger = { warn(message: string): void }

class RefusalTally {
  private pending = 0
  private lastAt: Date | null = null
  private timer: NodeJS.Timeout | null = null
  private lastClear = 0
  private writing: Promise<void> = Promise.resolve()

  constructor(
    private readonly knex: Knex,
    private readonly logger: Logger,
  ) {}

  refused(): void {
    this.pending++
    this.lastAt = new Date()
    if (this.timer) return
    this.timer = setTimeout(() => void this.flush(), FLUSH_AFTER_MS)
    this.timer.unref()
  }

  verified(): void {
    const now = Date.now()
    if (now - this.lastClear < CLEAR_EVERY_MS) return
    this.lastClear = now
    this.writing = this.writing.then(() => this.clear()).catch((error) => this.logger.warn(`PGS: could not close the webhook-refusal notice: ${(error as Error).message}`))
  }

  /** Writes what is counted now (tests and shutdown call it; the timer otherwise). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const count = this.pending
    const at = this.lastAt
    this.pending = 0
    if (!count || !at) return this.writing
    this.writing = this.writing.then(() => this.write(count, at)).catch((error) => this.logger.warn(`PGS: could not record ${count} refused webhook deliveries: ${(error as Error).message}`))
    return this.writing
  }

  private async write(count: number, at: Date): Promise<void> {
    // One row for ever: a closed one is opened again with a fresh count.
    await this.knex.raw(
      `insert into "${FOLLOW_UP_TABLE}" ("id", "key", "kind", "state", "checks", "note", "created_at", "updated_at")
       values (?, ?, 'webhooks_refused', 'needs_person', ?, null, ?, ?)
       on conflict ("key") where "deleted_at" is null do update set
         "checks" = case when "${FOLLOW_UP_TABLE}"."state" = 'needs_person' then "${FOLLOW_UP_TABLE}"."checks" + excluded."checks" else excluded."checks" end,
         "created_at" = case when "${FOLLOW_UP_TABLE}"."state" = 'needs_person' then "${FOLLOW_UP_TABLE}"."created_at" else excluded."created_at" end,
         "state" = 'needs_person', "resolved_at" = null,
         "updated_at" = greatest("${FOLLOW_UP_TABLE}"."updated_at", excluded."updated_at")`,
      [generateEntityId(undefined, "pgsfu"), REFUSED_KEY, count, at, at],
    )
  }

  private async clear(): Promise<void> {
    await this.knex(FOLLOW_UP_TABLE)
      .where({ key: REFUSED_KEY, state: "needs_person" })
      .whereNull("deleted_at")
      .update({ state: "done", resolved_at: new Date() })
  }
}

const tallies = new WeakMap<Knex, RefusalTally>()

export function refusalTally(knex: Knex, logger: Logger): RefusalTally {
  let tally = tallies.get(knex)
  if (!tally) tallies.set(knex, (tally = new RefusalTally(knex, logger)))
  return tally
}
