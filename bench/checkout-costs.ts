/**
 * What one checkout costs besides its wall time, counted in this process while it runs:
 * - gateway calls (undici's diagnostics channels, so the plugin's client is measured as it is, unchanged): how
 *   many, the gateway's own handling (the sandbox's `Server-Timing: app;dur=`) and the round trips (from undici
 *   creating the request to the answer's headers, minus that handling);
 * - database queries: every query any pg client of this process sends (Medusa's and the plugin's alike);
 * - CPU time of this process (all its threads), which a loaded machine inflates less than wall time.
 * Checkouts run one at a time, so whatever happens inside a window belongs to its checkout.
 * Only timings and counts are kept: no header value but Server-Timing, no URL, no body.
 */
import diagnostics_channel from "node:diagnostics_channel"

/** A comment the bench puts in its own polling queries, so the meter leaves them out of the count. */
export const UNCOUNTED = "/* bench: uncounted */"

export type CheckoutCost = { ms: number; cpuMs: number; gatewayCalls: number; gatewayMs: number; roundTripMs: number; dbQueries: number }

type Window = Omit<CheckoutCost, "ms" | "cpuMs">

export function startCostMeter(gatewayOrigin: string) {
  let open: Window | null = null
  const started = new WeakMap<object, number>()

  const onCreate = (message: unknown) => {
    const { request } = message as { request: { origin?: unknown; path?: unknown } }
    // The bench's own calls to the sandbox's test controls (/_sandbox/*) are not the plugin's gateway calls.
    if (open && String(request.origin) === gatewayOrigin && !String(request.path).startsWith("/_sandbox/")) started.set(request, performance.now())
  }
  const onHeaders = (message: unknown) => {
    const { request, response } = message as { request: object; response: { headers: Buffer[] } }
    const t0 = started.get(request)
    if (t0 === undefined || !open) return
    started.delete(request)
    const handling = serverTiming(response.headers)
    open.gatewayCalls++
    open.gatewayMs += handling
    open.roundTripMs += performance.now() - t0 - handling
  }
  diagnostics_channel.subscribe("undici:request:create", onCreate)
  diagnostics_channel.subscribe("undici:request:headers", onHeaders)

  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { Client } = require("pg") as { Client: { prototype: { query: (...args: unknown[]) => unknown } } }
  const query = Client.prototype.query
  Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    if (open && !isUncounted(args[0])) open.dbQueries++
    return query.apply(this, args)
  }

  return {
    /** Runs `work` as one checkout's window and returns what it cost. */
    async measure(work: () => Promise<void>): Promise<CheckoutCost> {
      const window: Window = { gatewayCalls: 0, gatewayMs: 0, roundTripMs: 0, dbQueries: 0 }
      open = window
      const t0 = performance.now()
      const cpu0 = process.cpuUsage()
      try {
        await work()
      } finally {
        open = null
      }
      const cpu = process.cpuUsage(cpu0)
      return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, ...window }
    },
    stop() {
      diagnostics_channel.unsubscribe("undici:request:create", onCreate)
      diagnostics_channel.unsubscribe("undici:request:headers", onHeaders)
      Client.prototype.query = query
    },
  }
}

const isUncounted = (query: unknown) => {
  const text = typeof query === "string" ? query : (query as { text?: unknown } | null)?.text
  return typeof text === "string" && text.includes(UNCOUNTED)
}

/** `app;dur=1.23` from raw undici headers ([name, value, …] as Buffers); 0 when the answer has none. */
function serverTiming(raw: Buffer[]): number {
  for (let i = 0; i < raw.length; i += 2) {
    if (String(raw[i]).toLowerCase() !== "server-timing") continue
    const m = /(?:^|,)\s*app;dur=([\d.]+)/.exec(String(raw[i + 1]))
    if (m) return Number(m[1])
  }
  return 0
}
