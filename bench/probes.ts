/**
 * Where webhook acknowledgement time goes while a burst runs, read from inside the store's process (the bench
 * runs in it): event-loop delay, garbage-collection pauses, this process's CPU time against the wall clock (on a
 * shared machine the rest is other processes'), and the database pool (a connection wait).
 */
import { monitorEventLoopDelay, PerformanceObserver } from "node:perf_hooks"
import { cpuUsage } from "node:process"
import { round } from "./support"

type TarnPool = { numUsed(): number; numPendingAcquires(): number; max: number }

export function startProbes(knex: { client: { pool?: TarnPool } }) {
  const loop = monitorEventLoopDelay({ resolution: 10 })
  loop.enable()
  const gc: number[] = []
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gc.push(entry.duration)
  })
  gcObserver.observe({ entryTypes: ["gc"] })
  const cpuStart = cpuUsage()
  const wallStart = performance.now()
  const pool = knex.client.pool
  let samples = 0
  let waiting = 0
  let maxPending = 0
  let maxUsed = 0
  const timer = setInterval(() => {
    if (!pool) return
    const pending = pool.numPendingAcquires()
    samples++
    if (pending > 0) waiting++
    maxPending = Math.max(maxPending, pending)
    maxUsed = Math.max(maxUsed, pool.numUsed())
  }, 10)
  return {
    stop() {
      clearInterval(timer)
      loop.disable()
      gcObserver.disconnect()
      const cpu = cpuUsage(cpuStart)
      const wall = performance.now() - wallStart
      return {
        process_cpu_share: round((cpu.user + cpu.system) / 1000 / wall, 2),
        gc_pause_total_ms: round(gc.reduce((a, b) => a + b, 0), 0),
        gc_pause_max_ms: round(Math.max(0, ...gc), 1),
        event_loop_delay_p50_ms: round(loop.percentile(50) / 1e6, 1),
        event_loop_delay_p99_ms: round(loop.percentile(99) / 1e6, 1),
        event_loop_delay_max_ms: round(loop.max / 1e6, 1),
        pool_max: pool?.max ?? null,
        pool_used_max: maxUsed,
        pool_waiters_max: maxPending,
        pool_share_with_waiters: samples ? round(waiting / samples, 2) : null,
      }
    },
  }
}
