/** How reconciliation paces itself: how much per run, how often one transaction is re-read, when a person is told. */
export const RECONCILE = {
  /**
   * Due checks fetched at a time; a run keeps fetching while some are due, for up to `runBudgetMs` (the job runs
   * every 5 minutes), so its pace follows the backlog: a lost day of webhooks is read within the hour (the
   * history bench, docs/benchmarks-history.md).
   */
  batch: 100,
  runBudgetMs: 4 * 60_000,
  /** Checks in flight at once (pace.ts): from `start`, up to `max`; paused and halved when the gateway is overloaded. */
  pace: { start: 4, max: 16, basePauseMs: 1_000, maxPauseMs: 60_000, stopAfterOverloads: 8 },
  /** Pending sessions and payouts looked at per page to find new ones to watch, and pages per run. */
  scan: 200,
  scanPages: 100,
  /** Only what changed within this many days is looked for (older is given up or stuck, and told already). */
  watchDays: 7,
  /** 5 min, 10, 20, … doubling up to 6 h between two reads of one transaction. */
  baseDelayMs: 5 * 60_000,
  maxDelayMs: 6 * 60 * 60_000,
  /** After this many reads still not final (about 3 days), a person is told; the reads go on at the longest delay. */
  checksBeforeTelling: 16,
  /** How long a runner holds a claimed check: a runner that dies mid-check leaves it to another after this. */
  leaseMs: 2 * 60_000,
  /**
   * A Medusa capture or refund row the provider has not recorded is looked at once it is this old: longer than the
   * webhook path's wait for Medusa's call, counted from the same row (option medusaCallWaitSeconds: 58 s by
   * default, at most 4 minutes, and always longer than the call's manage timeout).
   */
  unfinishedOperationAfterMs: 5 * 60_000,
  /**
   * A refund that failed (payments/refund-failed.ts) whose order is still not canceled this long after: no order
   * cancel asked for it (Medusa's cancel marks the order within seconds of its refund step), so a person saw the error.
   */
  failedRefundSettledAfterMs: 15 * 60_000,
  /** Wall time a run spends on failed refunds at most (each may wait for its payment's event lock). */
  failedRefundsBudgetMs: 60_000,
  /** A failed refund's listing handed to a person is tried again this often, until it works. */
  failedRefundRetryMs: 60 * 60_000,
  /** A "Refund not made" is looked at again this often: raised again, once marked handled, while it is not made. */
  refundNotMadeRecheckMs: 24 * 60 * 60_000,
}

export function nextCheckAt(checks: number, now: Date): Date {
  const delay = Math.min(RECONCILE.maxDelayMs, RECONCILE.baseDelayMs * 2 ** Math.max(0, checks - 1))
  return new Date(now.getTime() + delay)
}
