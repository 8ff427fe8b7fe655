/**
 * How fast reconciliation reads the gateway: as many checks in flight as the gateway takes well, more while it
 * answers (one more after each full round of answers), half as many and a pause when it says it is overloaded (429,
 * 5xx, timeouts; a 429's Retry-After is honoured). After many overloads in a row the run stops: the next run goes
 * on. Each transaction's own backoff (policy.ts) is apart from this: the pace only decides how many at once.
 */
import { GatewayRateLimitedError, GatewayTimeoutError, GatewayUnavailableError } from "../../gateway"
import { RECONCILE } from "./policy"

export const isOverload = (error: unknown) =>
  error instanceof GatewayRateLimitedError || error instanceof GatewayUnavailableError || error instanceof GatewayTimeoutError

export class GatewayPace {
  concurrency: number = RECONCILE.pace.start
  private answeredInRound = 0
  private overloadsInARow = 0
  private pausedUntil = 0

  answered(): void {
    this.overloadsInARow = 0
    if (++this.answeredInRound >= this.concurrency) {
      this.answeredInRound = 0
      this.concurrency = Math.min(RECONCILE.pace.max, this.concurrency + 1)
    }
  }

  overloaded(error: unknown): void {
    this.overloadsInARow++
    this.answeredInRound = 0
    this.concurrency = Math.max(1, Math.floor(this.concurrency / 2))
    const retryAfter = error instanceof GatewayRateLimitedError ? error.retryAfterMs : null
    const pause = retryAfter ?? Math.min(RECONCILE.pace.maxPauseMs, RECONCILE.pace.basePauseMs * 2 ** (this.overloadsInARow - 1))
    this.pausedUntil = Math.max(this.pausedUntil, Date.now() + Math.min(pause, RECONCILE.pace.maxPauseMs))
  }

  get stopped(): boolean {
    return this.overloadsInARow >= RECONCILE.pace.stopAfterOverloads
  }

  /** Waits out a pause the gateway asked for. */
  async ready(): Promise<void> {
    const wait = this.pausedUntil - Date.now()
    if (wait > 0) await new Promise<void>((resolve) => setTimeout(resolve, wait))
  }
}

/** Runs `work` over `items` with the pace's concurrency (re-read before each start). */
export async function runPaced<T>(items: T[], pace: GatewayPace, work: (item: T) => Promise<void>): Promise<void> {
  const inFlight = new Set<Promise<void>>()
  for (const item of items) {
    if (pace.stopped) break
    await pace.ready()
    while (inFlight.size >= pace.concurrency) await Promise.race(inFlight)
    const running: Promise<void> = work(item).finally(() => inFlight.delete(running))
    inFlight.add(running)
  }
  await Promise.all(inFlight)
}
