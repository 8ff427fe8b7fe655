/**
 * One phase of a shopper's wait (from an action to what it waited for), summarised from the page's requests: time,
 * requests, the critical path split into store and gateway round trips (integration-tests/support/critical-path.ts),
 * the widget's bytes, and any request made twice.
 *
 * CORS preflights (OPTIONS) are counted apart and kept off the path: Chromium stamps the request a preflight precedes
 * as sent before it, so the request's own span already holds the preflight's round trip, and a store call is one
 * link however many preflights it needed. The gateway's frames repeat their own files and session read (one bridge
 * frame, one card frame, the floor page too): reported, but only our requests (store, storefront) count as repeated.
 */
import { criticalPath, countByKind, type RequestKind } from "../../integration-tests/support/critical-path"
import type { RecordedRequest } from "./recorder"

export type Origins = { store: string; gateway: string }

export type PhaseResult = {
  ms: number
  /** Requests that went to the network (answers from the browser's cache are `from_cache`). */
  requests: ReturnType<typeof countByKind>
  from_cache: number
  /** `chain`: the path's requests in order; `chain_ms`: when each was sent and answered, ms from the phase's start. */
  critical_path: ReturnType<typeof countByKind> & { chain: string[]; chain_ms: [number, number][] }
  /** The widget's own files fetched in the phase (the storefront's /widget/*.js), bytes on the wire. */
  widget_bytes: number
  /** CORS preflights the browser sent in the phase (not in `requests`). */
  preflights: number
  /** "METHOD url ×n" of every store or storefront request sent more than once in the phase. */
  repeated: string[]
  /** The same for the gateway's own requests (its frames'), which no integration chooses. */
  gateway_repeated: string[]
}

export function summarisePhase(all: RecordedRequest[], start: number, end: number, origins: Origins): PhaseResult {
  // A request sent in the phase; one still unanswered at its end did not hold the shopper up, so it is counted but
  // is not on the path.
  const sent = all.filter((r) => r.start >= start && r.start <= end && !r.failed && /^https?:/.test(r.url))
  const preflights = sent.filter((r) => r.method === "OPTIONS")
  const network = sent.filter((r) => !r.fromCache && r.method !== "OPTIONS")
  const kind = (url: string): RequestKind => (url.startsWith(origins.store + "/") ? "store" : url.startsWith(origins.gateway + "/") ? "gateway" : "other")
  const records = network.map((r) => ({ url: r.url, method: r.method, start: r.start, end: Math.min(r.end ?? end, end), kind: kind(r.url), answered: r.end !== undefined && r.end <= end }))
  const path = criticalPath(records.filter((r) => r.answered))
  const repeats = (list: typeof records) => {
    const seen = new Map<string, number>()
    for (const r of list) seen.set(`${r.method} ${r.url}`, (seen.get(`${r.method} ${r.url}`) ?? 0) + 1)
    return [...seen].filter(([, n]) => n > 1).map(([key, n]) => `${key} ×${n}`)
  }
  return {
    ms: Math.round(end - start),
    requests: countByKind(records),
    from_cache: sent.filter((r) => r.fromCache).length,
    preflights: preflights.length,
    critical_path: {
      ...path.roundTrips,
      chain: path.chain.map((r) => `${r.kind} ${(r as (typeof records)[number]).method} ${new URL(r.url).pathname}`),
      chain_ms: path.chain.map((r) => [Math.round(r.start - start), Math.round(r.end - start)]),
    },
    widget_bytes: network.filter((r) => new URL(r.url).pathname.startsWith("/widget/")).reduce((sum, r) => sum + r.bytes, 0),
    repeated: repeats(records.filter((r) => r.kind !== "gateway")),
    gateway_repeated: repeats(records.filter((r) => r.kind === "gateway")),
  }
}
