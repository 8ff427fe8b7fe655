/**
 * The payout provider finishing by itself, when asked: with `payoutSettleAfterMs` (CLI --settle-payouts-after,
 * control POST /_sandbox/settings `payout_settle_after_ms`) above 0, a payout still PENDING that long after it
 * became pending is APPROVED, as the gateway's provider would finish it, and its final webhook goes out like any
 * other status change. 0 (the default) leaves pending payouts to the controls and metadata simulate_result.
 */
import type { SandboxStore } from "../core/store"
import type { TransactionRecord } from "../core/types"

const PAYOUT_TYPES = new Set<TransactionRecord["transaction_type"]>(["PAYOUT", "OCT"])

export class PayoutSettler {
  private readonly timers = new Map<string, NodeJS.Timeout>()

  constructor(
    private readonly store: SandboxStore,
    private readonly delayMs: () => number,
  ) {
    store.onStatusChange(({ transaction }) => this.watch(transaction))
  }

  /** After a change of the delay: every payout pending now is settled that long from now (or left, for 0). */
  rescheduleAll(): void {
    this.stop()
    for (const tx of this.store.transactions.values()) this.watch(tx)
  }

  /** Clears every timer (reset, close). */
  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer)
    this.timers.clear()
  }

  private watch(tx: TransactionRecord): void {
    const delay = this.delayMs()
    if (delay <= 0 || tx.status !== "PENDING" || !PAYOUT_TYPES.has(tx.transaction_type) || this.timers.has(tx.id)) return
    const timer = setTimeout(() => {
      this.timers.delete(tx.id)
      this.store.setStatus(tx, "APPROVED") // no-op when something finished it first
    }, delay)
    timer.unref()
    this.timers.set(tx.id, timer)
  }
}
