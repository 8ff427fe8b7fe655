/**
 * Counting a page's round trips in the browser tests (issue 48): every request the page and its frames made, with
 * when it was sent and when its answer had arrived (Chromium's own timing), sorted into store (Medusa), gateway
 * and other; then support/critical-path.ts finds the longest chain of requests each sent after another answered.
 * Tests count the chain's store round trips; they never compare its duration with anything.
 */
import type { BrowserContext, Page, Request } from "playwright-core"
import { criticalPath, type CriticalPath, type RequestRecord } from "../support/critical-path"

export type Recorded = RequestRecord & { method: string; path: string }

export type RoundTrips = {
  /** The requests that had answered by now, sent at or after `since` (Date.now() of this process). */
  since(since: number): Recorded[]
}

/**
 * Records the finished requests of a page (or of every page of a context) from now on; `store` and `gateway` are the
 * origins of Medusa and the sandbox.
 */
export function recordRequests(page: Page | BrowserContext, origins: { store: string; gateway: string }): RoundTrips {
  const records: Recorded[] = []
  const kindOf = (url: string): RequestRecord["kind"] =>
    url.startsWith(origins.store) ? "store" : url.startsWith(origins.gateway) ? "gateway" : "other"
  ;(page as Page).on("requestfinished", (request: Request) => {
    const t = request.timing()
    // A request answered by the test itself (route.fulfill) has no network timing: not a round trip.
    if (!(t.startTime > 0) || !(t.responseStart >= 0)) return
    const url = request.url()
    // Answered when its first byte came: Chromium's "finished" comes after the page already has a small answer
    // (measured: the widget's session request, sent only once the methods had answered, started 20 ms before the
    // methods' responseEnd), which would hide a chain link. The store's answers are small JSON, whole in one read.
    records.push({ url, method: request.method(), path: new URL(url).pathname, start: t.startTime, end: t.startTime + t.responseStart, kind: kindOf(url) })
  })
  return { since: (since) => records.filter((r) => r.start >= since) }
}

/**
 * The CORS preflights (OPTIONS) a page sends from now on, with when each was sent (ms since the epoch, the clock of
 * Date.now() and of `recordRequests`): Playwright's request events leave them out; Chromium's DevTools protocol
 * reports them.
 */
export async function recordPreflights(page: Page): Promise<{ since(since: number): { url: string; start: number }[] }> {
  const sent: { url: string; start: number }[] = []
  const cdp = await page.context().newCDPSession(page)
  cdp.on("Network.requestWillBeSent", (e) => void (e.request.method === "OPTIONS" && sent.push({ url: e.request.url, start: e.wallTime * 1000 })))
  await cdp.send("Network.enable")
  return { since: (since) => sent.filter((p) => p.start >= since) }
}

/** "GET /store/carts/:id": a store request named by method and path, ids left out, for the assertions' messages. */
export const named = (r: Recorded) => `${r.method} ${r.path.replace(/\/(cart|pay_col|payses|order|pay)_[0-9A-Za-z]+/g, (_, p: string) => `/${p}_…`)}`

/**
 * The store's part of a phase: its critical path counted over every request (the store round trips on it), the
 * longest chain of store requests alone (none of them may wait on more than `max - 1` others), and the store
 * requests made, by name, so a request made twice shows.
 */
export function storeRoundTrips(records: Recorded[]): { onCriticalPath: number; storeChain: number; requests: string[]; path: CriticalPath } {
  const path = criticalPath(records)
  return {
    onCriticalPath: path.roundTrips.store,
    storeChain: criticalPath(records.filter((r) => r.kind === "store")).roundTrips.store,
    requests: records.filter((r) => r.kind === "store").map(named).sort(),
    path,
  }
}
