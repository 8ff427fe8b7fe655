/**
 * Splits the checkout's cost (docs/benchmarks.md, "What a checkout costs the plugin"):
 * - gateway: the sandbox's own handling of the checkout's calls (sum of their Server-Timing);
 * - round trips: per call, the time the client waited for the answer's headers minus that handling;
 * - the plugin's own: at each percentile, what the pp_pgs_pgs checkout takes with the gateway and the round trips
 *   taken out, minus what the pp_system_default checkout takes (the same Medusa work without a gateway); and the
 *   same per pair (each pp_pgs_pgs checkout minus the pp_system_default one run right after it), whose percentiles
 *   are steadier;
 * - CPU: the store process's CPU time per checkout, pp_pgs_pgs minus pp_system_default at the same percentile.
 */
import type { CheckoutCost } from "./checkout-costs"
import { percentile, round } from "./support"

const sorted = (values: number[]) => [...values].sort((a, b) => a - b)
const at = (values: number[], p: number) => percentile(sorted(values), p)
const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length

export function checkoutCosts(pgs: CheckoutCost[], system: CheckoutCost[], approvals: CheckoutCost[]) {
  const total = pgs.map((c) => c.ms)
  const systemTotal = system.map((c) => c.ms)
  const net = pgs.map((c) => c.ms - c.gatewayMs - c.roundTripMs)
  const own = (p: number) => round(at(net, p) - at(systemTotal, p), 1)
  // Checkouts alternate pp_pgs_pgs, pp_system_default: each pair ran back to back on the same machine state, so the
  // per-pair difference leaves out most of what the machine does to both (GC, neighbours, the store growing).
  const paired = net.map((ms, i) => ms - system[i]!.ms)
  return {
    pgs_p50_ms: round(at(total, 50), 1),
    system_p50_ms: round(at(systemTotal, 50), 1),
    p50_ratio: round(at(total, 50) / at(systemTotal, 50)),
    pgs_p99_ms: round(at(total, 99), 1),
    system_p99_ms: round(at(systemTotal, 99), 1),
    plugin_own_p50_ms: own(50),
    plugin_own_p99_ms: own(99),
    plugin_own_paired_p50_ms: round(at(paired, 50), 1),
    plugin_own_paired_p99_ms: round(at(paired, 99), 1),
    gateway_p50_ms: round(at(pgs.map((c) => c.gatewayMs), 50), 1),
    gateway_p99_ms: round(at(pgs.map((c) => c.gatewayMs), 99), 1),
    round_trips_p50_ms: round(at(pgs.map((c) => c.roundTripMs), 50), 1),
    round_trips_p99_ms: round(at(pgs.map((c) => c.roundTripMs), 99), 1),
    pgs_cpu_p50_ms: round(at(pgs.map((c) => c.cpuMs), 50), 1),
    system_cpu_p50_ms: round(at(system.map((c) => c.cpuMs), 50), 1),
    plugin_own_cpu_p50_ms: round(at(pgs.map((c) => c.cpuMs), 50) - at(system.map((c) => c.cpuMs), 50), 1),
    db_queries_per_checkout: round(mean(pgs.map((c) => c.dbQueries)), 1),
    system_db_queries_per_checkout: round(mean(system.map((c) => c.dbQueries)), 1),
    gateway_calls_per_checkout: round(mean(pgs.map((c) => c.gatewayCalls)), 2),
    // The gateway's approval webhook for each pp_pgs_pgs checkout, received and applied after the shopper's wait.
    approval_webhook_p50_ms: round(at(approvals.map((c) => c.ms), 50), 1),
    approval_webhook_cpu_p50_ms: round(at(approvals.map((c) => c.cpuMs), 50), 1),
    approval_webhook_db_queries: round(mean(approvals.map((c) => c.dbQueries)), 1),
    approval_webhook_gateway_calls: round(mean(approvals.map((c) => c.gatewayCalls)), 2),
  }
}

export function costTable(c: ReturnType<typeof checkoutCosts>): string {
  const row = (name: string, p50: number | string, p99: number | string) => `  ${name.padEnd(34)}${String(p50).padStart(9)}${String(p99).padStart(9)}\n`
  return (
    "checkout, per checkout (ms):          p50      p99\n" +
    row("pp_pgs_pgs total", c.pgs_p50_ms, c.pgs_p99_ms) +
    row("  gateway handling (Server-Timing)", c.gateway_p50_ms, c.gateway_p99_ms) +
    row("  round trips", c.round_trips_p50_ms, c.round_trips_p99_ms) +
    row("  plugin's own (beyond system)", c.plugin_own_p50_ms, c.plugin_own_p99_ms) +
    row("  plugin's own, pair by pair", c.plugin_own_paired_p50_ms, c.plugin_own_paired_p99_ms) +
    row("pp_system_default total", c.system_p50_ms, c.system_p99_ms) +
    `  store CPU per checkout (p50): pgs ${c.pgs_cpu_p50_ms} ms, system ${c.system_cpu_p50_ms} ms (plugin's own ${c.plugin_own_cpu_p50_ms} ms)\n` +
    `  database queries per checkout: pgs ${c.db_queries_per_checkout}, system ${c.system_db_queries_per_checkout}; gateway calls per pgs checkout: ${c.gateway_calls_per_checkout}\n` +
    `  its approval webhook, after the shopper's wait: p50 ${c.approval_webhook_p50_ms} ms until applied, CPU ${c.approval_webhook_cpu_p50_ms} ms, ${c.approval_webhook_db_queries} database queries, ${c.approval_webhook_gateway_calls} gateway calls\n`
  )
}
