/** How reconciliation paces itself: how much per run, how often one transaction is re-read, when a person is told. */
export const RECONCILE = {
  /** Transactions re-read per job run (the job runs every 5 minutes). */
  batch: 25,
  /** Pending sessions and payouts looked at per run to find new ones to watch. */
  scan: 200,
  /** 5 min, 10, 20, … doubling up to 6 h between two reads of one transaction. */
  baseDelayMs: 5 * 60_000,
  maxDelayMs: 6 * 60 * 60_000,
  /** After this many reads still not final (about 3 days), a person is told; the reads go on at the longest delay. */
  checksBeforeTelling: 16,
  /** How long a runner holds a claimed check: a runner that dies mid-check leaves it to another after this. */
  leaseMs: 2 * 60_000,
}

export function nextCheckAt(checks: number, now: Date): Date {
  const delay = Math.min(RECONCILE.maxDelayMs, RECONCILE.baseDelayMs * 2 ** Math.max(0, checks - 1))
  return new Date(now.getTime() + delay)
}
