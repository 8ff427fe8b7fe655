/**
 * The critical path of a page's requests: the longest chain of requests in which each one starts only after the one
 * before it answered. On a slow network each link of that chain costs a full round trip, so its length — split into
 * round trips to the store (Medusa) and to the gateway — is what a shopper waits for, however fast the servers are.
 *
 * The chain is inferred from timing alone (no initiator data): a request that started after another one had
 * answered is taken as waiting for it. Record only the requests of the phase you measure, and give `end` as the
 * moment the whole answer had arrived (CDP `Network.loadingFinished`, playwright `requestfinished`): a request
 * started while an answer was still streaming overlaps it and does not lengthen the chain.
 *
 * Used by the browser tests (which count round trips, never time) and by `npm run bench:shopper`.
 *
 *   const path = criticalPath(records)
 *   expect(path.roundTrips.store).toBeLessThanOrEqual(2)
 */

export type RequestKind = "store" | "gateway" | "other"

export type RequestRecord = {
  url: string
  /** When the request was sent, in milliseconds on any clock shared by all records. */
  start: number
  /** When its answer had fully arrived, on the same clock. */
  end: number
  kind: RequestKind
}

export type CriticalPath = {
  /** The chain, first request first. Empty when there were no requests. */
  chain: RequestRecord[]
  /** Round trips on the chain, per kind; `total` is the chain's length. */
  roundTrips: Record<RequestKind, number> & { total: number }
  /** From the chain's first start to its last end (0 when empty). */
  durationMs: number
}

/**
 * The longest chain by number of round trips. Between chains of equal length the one that finishes last wins (it
 * is the one the page waited for), then the one with more store round trips (the count the store can change).
 * Throws, naming the record and field, on a record whose times are not finite numbers or that ends before it starts.
 */
export function criticalPath(records: readonly RequestRecord[]): CriticalPath {
  records.forEach(assertValidRecord)
  const byStart = [...records].sort((a, b) => a.start - b.start || a.end - b.end)

  // best[i]: the best chain ending with byStart[i]; built in start order, since a predecessor starts earlier.
  const best: { length: number; store: number; previous: number }[] = []
  byStart.forEach((request, i) => {
    let chosen = { length: 1, store: isStore(request), previous: -1 }
    for (let j = 0; j < i; j++) {
      if (byStart[j].end > request.start) continue
      const candidate = { length: best[j].length + 1, store: best[j].store + isStore(request), previous: j }
      if (candidate.length > chosen.length || (candidate.length === chosen.length && candidate.store > chosen.store)) chosen = candidate
    }
    best.push(chosen)
  })

  let last = -1
  byStart.forEach((request, i) => {
    if (last === -1) return void (last = i)
    const a = best[i], b = best[last]
    if (a.length !== b.length ? a.length > b.length : request.end !== byStart[last].end ? request.end > byStart[last].end : a.store > b.store) last = i
  })

  const chain: RequestRecord[] = []
  for (let i = last; i !== -1; i = best[i].previous) chain.unshift(byStart[i])
  return {
    chain,
    roundTrips: countByKind(chain),
    durationMs: chain.length ? chain[chain.length - 1].end - chain[0].start : 0,
  }
}

/** Requests per kind, whether on the chain or beside it. */
export function countByKind(records: readonly RequestRecord[]): Record<RequestKind, number> & { total: number } {
  return {
    store: records.filter((r) => r.kind === "store").length,
    gateway: records.filter((r) => r.kind === "gateway").length,
    other: records.filter((r) => r.kind === "other").length,
    total: records.length,
  }
}

function isStore(request: RequestRecord): number {
  return request.kind === "store" ? 1 : 0
}

function assertValidRecord(record: RequestRecord, index: number): void {
  const where = `request ${index} (${record?.url})`
  for (const field of ["start", "end"] as const) {
    if (typeof record?.[field] !== "number" || !Number.isFinite(record[field])) throw new Error(`${where}: ${field} must be a finite number of milliseconds, got ${record?.[field]}`)
  }
  if (record.end < record.start) throw new Error(`${where}: end (${record.end}) is before start (${record.start})`)
  if (!["store", "gateway", "other"].includes(record.kind)) throw new Error(`${where}: kind must be "store", "gateway" or "other", got ${JSON.stringify(record.kind)}`)
}
