/**
 * The lock one capture or refund of a payment holds at a time (one-operation.ts), on Medusa's locking module.
 * Held by a short lease the holder keeps renewing, so a process that dies holding it (a server killed mid-capture)
 * frees it within the lease, while a live holder keeps it as long as Medusa's route works, however slow the gateway.
 * Medusa's Redis provider renews a lock taken by `execute` every third of its `expire` until the job ends (and aborts
 * the job's signal if a renewal finds the lock gone); without `expire` the lease is its default, 60 s, which a dead
 * holder's lock outlived (FRAMEWORK-NOTES 81). The in-memory provider holds it exactly as long as the job runs, the
 * PostgreSQL one for the job's transaction: a dead process takes both with it. A lease lost while the job ran is
 * logged and the job's result kept (lib/leased-lock.ts): the capture or refund was made.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { underLeasedLock } from "../../../../lib/leased-lock"

export const OPERATION_LOCK = {
  /** How long a second request waits for the first one's answer before it is refused. */
  waitSeconds: 60,
  /**
   * How long the lock outlives a holder that stopped renewing it: a dead process, or one whose event loop stood
   * still that long (renewals every 5 s: a stall of about 10 s is survived).
   */
  leaseSeconds: 15,
}

export const operationLockKey = (paymentId: string) => `pgs-payment-operation:${paymentId}`

/**
 * Runs `job` holding the payment's operation lock; `signal` aborts if the lease was lost while it ran (Redis only),
 * and what the job returns is returned all the same.
 */
export const underOperationLock = <T>(scope: MedusaContainer, paymentId: string, job: (signal?: AbortSignal) => Promise<T>): Promise<T> =>
  underLeasedLock(scope, operationLockKey(paymentId), job, { timeout: OPERATION_LOCK.waitSeconds, expire: OPERATION_LOCK.leaseSeconds })
