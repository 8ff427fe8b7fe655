/**
 * The drills' job runners (run-job.ts): long-lived `medusa exec` processes, each booted once and then running one
 * job at a time when asked, so a job run costs the job, not a Medusa boot. Two runs at once go to two processes
 * (two workers at the same moment); a runner killed mid-run is gone, and the next run goes to another one (a new
 * one is booted only when none is free).
 */
import type { ChildProcess } from "node:child_process"
import path from "node:path"
import { request } from "undici"
import { spawnCli, stopProcess, type Env } from "../../../scripts/demo/medusa"

type Runner = { child: ChildProcess; ready: Promise<string>; busy: boolean; tail: string[] }

export type JobRunners = {
  /** POSTs to a free runner (booting one if none is free); `child` is the process that runs it. */
  run(route: "/run" | "/seed" | "/hold-operation-lock", body: unknown): { child: ChildProcess; result: Promise<any> }
  /** Boots runners until `n` are running; resolves when they answer. */
  warm(n: number): Promise<void>
  stop(): Promise<void>
}

const SCRIPT = path.relative(path.join(__dirname, "../../.."), path.join(__dirname, "run-job.ts"))
const BOOT_TIMEOUT_MS = 300_000

export function jobRunners(env: Env, log?: (line: string) => void): JobRunners {
  const runners: Runner[] = []
  // `killed`: a drill's SIGKILL is sent, its exit may not be reported yet; such a runner takes no more runs.
  const alive = (r: Runner) => r.child.exitCode === null && r.child.signalCode === null && !r.child.killed

  const boot = (): Runner => {
    let listening: (url: string) => void
    const tail: string[] = []
    const child = spawnCli(["exec", SCRIPT], { ...env, MEDUSA_WORKER_MODE: "worker" }, (line) => {
      tail.push(line)
      if (tail.length > 60) tail.shift()
      log?.(`[job-runner ${child.pid}] ${line}`)
      const port = /^TOPOLOGY_RUNNER_LISTENING (\d+)/.exec(line)?.[1]
      if (port) listening(`http://127.0.0.1:${port}`)
    })
    const ready = new Promise<string>((resolve, reject) => {
      listening = resolve
      const timer = setTimeout(() => reject(new Error(`job runner not up within ${BOOT_TIMEOUT_MS / 1000} s:\n${tail.join("\n")}`)), BOOT_TIMEOUT_MS)
      child.once("exit", (code, signal) => reject(new Error(`job runner ended (${code ?? signal}) while booting:\n${tail.join("\n")}`)))
      child.once("exit", () => clearTimeout(timer))
    })
    ready.catch(() => {}) // reported to the run that waits for it
    const runner = { child, ready, busy: false, tail }
    runners.push(runner)
    return runner
  }

  const call = async (runner: Runner, route: string, body: unknown) => {
    const url = await runner.ready
    try {
      const res = await request(`${url}${route}`, { method: "POST", body: JSON.stringify(body), headersTimeout: 0, bodyTimeout: 0 })
      const text = await res.body.text()
      if (res.statusCode !== 200) throw new Error(`job runner ${route} ${JSON.stringify(body)} answered ${res.statusCode}:\n${text}`)
      return JSON.parse(text)
    } catch (error) {
      // No answer: the process is no runner any more (a drill killed it, or it broke); it takes no more runs.
      if (alive(runner)) runner.child.kill("SIGKILL")
      throw new Error(`job runner ended (${runner.child.exitCode ?? runner.child.signalCode ?? "killed"}) during ${route} ${JSON.stringify(body)}:\n${runner.tail.join("\n")}`)
    }
  }

  return {
    run: (route, body) => {
      const runner = runners.find((r) => alive(r) && !r.busy) ?? boot()
      runner.busy = true
      const result = call(runner, route, body).finally(() => (runner.busy = false))
      return { child: runner.child, result }
    },
    warm: async (n) => {
      while (runners.filter(alive).length < n) boot()
      await Promise.all(runners.filter(alive).map((r) => r.ready))
    },
    stop: async () => {
      await Promise.all(runners.map((r) => stopProcess(r.child)))
    },
  }
}
