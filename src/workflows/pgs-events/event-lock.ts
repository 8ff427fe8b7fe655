/**
 * The lock every writer of one PGS payment session's records runs under: the gateway events of each of its tries
 * (workflows/process-pgs-event.ts, named by the try's reference), the storefront's and 3-D Secure server's requests
 * (api/store/pgs/payment-sessions/session-request.ts, named by the session id) and what changes that payment's records
 * from outside an event (refund-not-made.ts; reconcile/unfinished-operations.ts, which makes an event due again and
 * removes the row it then records in place of; Needs attention's "Remove from the order", which removes a refund row
 * its message would be taken for: api/admin/pgs/attention/[id]/remove). One key per session, not per try: a late
 * decline webhook for an earlier try and the shopper's attach of the paid one would otherwise each write the data read
 * before the other wrote.
 * Nothing run under it takes it again (the lock is not re-entrant: that would wait out the timeout).
 * A lease lost while a run held it is logged and the run's result kept (lib/leased-lock.ts): its writes were made.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { underLeasedLock } from "../../lib/leased-lock"
import { sessionIdFromReference } from "../../payments/reference"

/** As long as one event or one gateway call may hold it. */
const EVENT_LOCK_TIMEOUT_SECONDS = 60
/**
 * How long the lock outlives a holder that stopped renewing it (a server killed mid-event): Medusa's Redis provider
 * renews a lock taken by `execute` every third of `expire` while the job runs; its default lease, 60 s, held up the
 * payment's next event that long after a crash (as the dashboard's operation lock did: api/admin/pgs/orders/operation-lock.ts).
 */
const EVENT_LOCK_LEASE_SECONDS = 15

/** A try's reference (payses_…-N) and its session id name the same lock; a reference we did not make names its own. */
export const eventLockKey = (reference: string): string => `pgs-event:${sessionIdFromReference(reference) ?? reference}`

export const underEventLock = <T>(container: MedusaContainer, reference: string, run: () => Promise<T>): Promise<T> =>
  underLeasedLock(container, eventLockKey(reference), run, { timeout: EVENT_LOCK_TIMEOUT_SECONDS, expire: EVENT_LOCK_LEASE_SECONDS })
