/** Shared bits of the benchmarks: a sandbox in a child process, percentiles, the JSON last line. */
import { spawn, type ChildProcess } from "node:child_process"
import path from "node:path"

export async function startSandboxProcess(args: string[] = []): Promise<{ url: string; stop(): void; child: ChildProcess }> {
  const bin = path.join(__dirname, "../bin/medusa-payment-pgs.js")
  const child = spawn(process.execPath, [bin, "sandbox", "--port", "0", ...args], { stdio: ["ignore", "pipe", "inherit"] })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ""
    child.stdout!.on("data", (chunk) => {
      out += chunk
      const m = /listening on (http:\/\/\S+)/.exec(out)
      if (m) resolve(m[1])
    })
    child.on("exit", (code) => reject(new Error(`sandbox exited with ${code}: ${out}`)))
  })
  return { url, child, stop: () => child.kill("SIGTERM") }
}

export function percentile(sortedMs: number[], p: number): number {
  if (sortedMs.length === 0) return NaN
  const i = Math.min(sortedMs.length - 1, Math.max(0, Math.ceil((p / 100) * sortedMs.length) - 1))
  return sortedMs[i]
}

/** Run `total` calls of `call` with `concurrency` in flight; returns sorted per-call latencies in ms and wall time. */
export async function runLoad(total: number, concurrency: number, call: (i: number) => Promise<void>) {
  const latencies: number[] = []
  let next = 0
  const started = process.hrtime.bigint()
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++
        const t0 = process.hrtime.bigint()
        await call(i)
        latencies.push(Number(process.hrtime.bigint() - t0) / 1e6)
      }
    }),
  )
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6
  latencies.sort((a, b) => a - b)
  return { latencies, wallMs, rps: (total / wallMs) * 1000 }
}

export const round = (n: number, digits = 3) => Number(n.toFixed(digits))
