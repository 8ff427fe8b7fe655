/**
 * Every network request of one page (its frames included) from Chrome's DevTools protocol, on the browser's wall
 * clock in milliseconds: sent, fully answered, bytes on the wire. A request answered from the browser's cache is
 * kept but marked (it costs no round trip); a redirect ends one request and starts the next.
 */
import type { CDPSession } from "playwright-core"

export type RecordedRequest = {
  id: string
  method: string
  url: string
  /** Chrome's resource type: Document, Script, Fetch, Preflight… */
  type: string
  start: number
  /** Undefined while unanswered (or failed). */
  end?: number
  failed?: boolean
  fromCache?: boolean
  /** Bytes received, headers included (compressed, as sent). */
  bytes: number
  status?: number
}

export class NetworkRecorder {
  readonly requests: RecordedRequest[] = []
  private readonly open = new Map<string, RecordedRequest>()
  // DevTools timestamps are monotonic seconds; requestWillBeSent carries the wall time too, which gives the offset.
  private wallOffsetMs: number | null = null

  constructor(session: CDPSession) {
    session.on("Network.requestWillBeSent", (e) => {
      this.wallOffsetMs ??= e.wallTime * 1000 - e.timestamp * 1000
      const previous = this.open.get(e.requestId)
      if (previous && e.redirectResponse) this.finish(previous, e.timestamp, e.redirectResponse.encodedDataLength ?? 0)
      const r: RecordedRequest = { id: e.requestId, method: e.request.method, url: e.request.url, type: e.type ?? "Other", start: this.wall(e.timestamp), bytes: 0 }
      this.requests.push(r)
      this.open.set(e.requestId, r)
    })
    session.on("Network.requestServedFromCache", (e) => {
      const r = this.open.get(e.requestId)
      if (r) r.fromCache = true
    })
    session.on("Network.responseReceived", (e) => {
      const r = this.open.get(e.requestId)
      if (r) r.status = e.response.status
      if (r && (e.response.fromDiskCache || e.response.fromServiceWorker || e.response.fromPrefetchCache)) r.fromCache = true
    })
    session.on("Network.loadingFinished", (e) => {
      const r = this.open.get(e.requestId)
      if (r) this.finish(r, e.timestamp, e.encodedDataLength)
    })
    session.on("Network.loadingFailed", (e) => {
      const r = this.open.get(e.requestId)
      if (!r) return
      r.failed = true
      this.open.delete(e.requestId)
    })
  }

  private finish(r: RecordedRequest, timestamp: number, bytes: number) {
    // Chromium's events for one request can disagree by a fraction of a millisecond (an answer stamped before its
    // request was): never an end before the start.
    r.end = Math.max(r.start, this.wall(timestamp))
    r.bytes = bytes
    this.open.delete(r.id)
  }

  private wall(timestampSeconds: number): number {
    return timestampSeconds * 1000 + (this.wallOffsetMs ?? 0)
  }

  /** The requests sent from `from` to `to` (wall-clock ms). */
  between(from: number, to: number): RecordedRequest[] {
    return this.requests.filter((r) => r.start >= from && r.start <= to)
  }
}
