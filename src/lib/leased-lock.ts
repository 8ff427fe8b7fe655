/**
 * A lock on Medusa's locking module held by a short lease its live holder renews (the dashboard's capture/refund lock,
 * api/admin/pgs/orders/operation-lock.ts; the payment's event lock, workflows/pgs-events/event-lock.ts; and every other
 * lock the plugin takes: RENEWED_LEASE_SECONDS, or MONEY_LEASE_SECONDS where a second run could pay twice), that keeps
 * what a job which finished did. Medusa's Redis provider (2.21 `locking-redis`) renews the lease every third of
 * `expire` while the job runs; when a renewal finds it gone (Redis unreachable for two renewals, the key evicted, this
 * process's event loop stalled past the lease) it aborts the job's signal and `execute` throws after the job returned
 * (FRAMEWORK-NOTES 84): the work is done by then (a capture made, a refund row removed), and a caller that took the
 * throw for a failure would tell a shop admin a capture that happened had failed, or skip what follows the job.
 * So a job that finished has its result returned, with a warning naming the lock's key; a job that threw throws its
 * own error; a lock not acquired in `timeout` throws as Medusa's does (the job never ran). The in-memory provider
 * holds a lock exactly as long as its job and never loses it; the PostgreSQL one commits the job's transaction after
 * it (a commit that fails then is kept the same way).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"

export type Lease = {
  /** Seconds a caller waits for the lock before it is refused. */
  timeout: number
  /** Seconds the lock outlives a holder that stopped renewing it. */
  expire: number
}

/**
 * The lease the plugin's other locks take (pay links, the shopper's Cancel, the cart lock): as the
 * operation and event locks' 15 s, renewed every 5 s while the job runs, so a live holder keeps the lock however long
 * its job takes (an event-loop stall of about 10 s is survived) and a killed process's lock frees within 15 s instead
 * of Medusa's default 60 s (FRAMEWORK-NOTES 81).
 */
export const RENEWED_LEASE_SECONDS = 15

/**
 * The lease of a job that records or moves money and is not refused when run twice at once (applying an order's
 * payment: the payment module takes a second payment for one session; charging a saved card): Medusa's default 60 s,
 * renewed every 20 s, so only a stall past 40 s loses it and lets a second run in before the first has recorded
 * anything. A killed server's lock then holds the next try up to a minute: a wait, not a second charge.
 */
export const MONEY_LEASE_SECONDS = 60

type Ran<T> = { done?: { value: T; signal?: AbortSignal }; threw?: { error: unknown } }

export async function underLeasedLock<T>(container: MedusaContainer, key: string, job: (signal?: AbortSignal) => Promise<T>, lease: Lease): Promise<T> {
  const ran: Ran<T> = {}
  try {
    return await container.resolve(Modules.LOCKING).execute(
      key,
      async (signal?: AbortSignal) => {
        try {
          const value = await job(signal)
          ran.done = { value, signal }
          return value
        } catch (error) {
          ran.threw = { error }
          throw error
        }
      },
      lease,
    )
  } catch (error) {
    if (ran.threw) throw ran.threw.error
    if (!ran.done) throw error
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    if (ran.done.signal?.aborted)
      logger.warn(
        `[pgs] The lock "${key}" was lost while its job ran (its ${lease.expire} s lease lapsed before it could be renewed: Redis unreachable, or this process stalled); the job finished and its result stands, though another process may have held the lock meanwhile.`,
      )
    else logger.warn(`[pgs] The lock "${key}" could not be given back after its job finished (${(error as Error)?.message}); the job's result stands, and the lock frees itself within its ${lease.expire} s lease.`)
    return ran.done.value
  }
}
