/**
 * Medusa as a store runs it in production: N `medusa start` processes with MEDUSA_WORKER_MODE=server (each with
 * the plugin's dedicated webhook receiver on its own port) and M with MEDUSA_WORKER_MODE=worker (scheduled jobs,
 * subscribers), all on one database and one Redis (medusa-config.ts adds the Redis modules when REDIS_URL is set),
 * with round-robin balancers in front of the servers' HTTP ports and of their webhook receivers. Used by the demo
 * (--servers/--workers), the topology drills and bench:topology; a process can be killed and started again.
 */
import type { ChildProcess } from "node:child_process"
import { freePort } from "../demo/flags"
import { startServer, stopProcess, waitForHealth, type Env } from "../demo/medusa"
import { startRoundRobin, type RoundRobin } from "./round-robin"

export type MedusaProcess = {
  name: string
  role: "server" | "worker"
  /** Medusa's HTTP port (a worker answers only /health there). */
  url: string
  /** The dedicated webhook receiver (servers only). */
  receiverUrl: string | null
  child: ChildProcess | null
  /** The last lines it logged (for a failure's message). */
  tail: string[]
}

export type Topology = {
  processes: MedusaProcess[]
  servers: MedusaProcess[]
  workers: MedusaProcess[]
  /** The balancer in front of the servers' HTTP ports: storefront, admin and store API go here. */
  url: string
  /** The balancer in front of the servers' webhook receivers: the gateway's webhooks go here. */
  webhookUrl: string
  /** Webhooks each server's receiver acknowledged through the webhook balancer, by receiver URL. */
  webhooksAnswered: Record<string, number>
  /** SIGKILL, as the OOM killer or a pulled plug does: no shutdown hook runs. */
  kill9(p: MedusaProcess): Promise<void>
  /** Starts a stopped or killed process again with the same ports and waits until it answers. */
  restart(p: MedusaProcess): Promise<void>
  /** Whether the process is running. */
  alive(p: MedusaProcess): boolean
  stop(): Promise<void>
}

export type TopologyOptions = {
  servers: number
  workers: number
  /** The store's environment (DATABASE_URL, REDIS_URL, PGS_*, CORS …). */
  env: Env
  /** Environment for the servers only (e.g. MEDUSA_ADMIN=true). */
  serverEnv?: Env
  log?: (line: string) => void
  /** Port for the HTTP balancer (0: any free one). */
  port?: number
  /** Port for the webhook balancer (0: any free one). */
  webhookPort?: number
  bootTimeoutMs?: number
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  // One server and no worker is one process doing both (MEDUSA_WORKER_MODE=shared), which needs no Redis.
  const shared = options.servers === 1 && options.workers === 0
  if (!shared && !options.env.REDIS_URL) throw new Error("separate server and worker processes share events, workflows and locks through Redis: set REDIS_URL")
  const processes: MedusaProcess[] = []
  for (let i = 1; i <= options.servers; i++)
    processes.push({ name: `server-${i}`, role: "server", url: `http://127.0.0.1:${await freePort(0)}`, receiverUrl: `http://127.0.0.1:${await freePort(0)}`, child: null, tail: [] })
  for (let i = 1; i <= options.workers; i++)
    processes.push({ name: `worker-${i}`, role: "worker", url: `http://127.0.0.1:${await freePort(0)}`, receiverUrl: null, child: null, tail: [] })

  const launch = (p: MedusaProcess) => {
    const port = new URL(p.url).port
    const env: Env =
      p.role === "server"
        ? { ...options.env, ...options.serverEnv, MEDUSA_WORKER_MODE: shared ? "shared" : "server", PORT: port, PGS_WEBHOOK_RECEIVER_PORT: new URL(p.receiverUrl!).port, PGS_WEBHOOK_RECEIVER_HOST: "127.0.0.1" }
        : { ...options.env, MEDUSA_WORKER_MODE: "worker", PORT: port, MEDUSA_ADMIN: "false", PGS_WEBHOOK_RECEIVER_PORT: "" }
    p.tail = []
    p.child = startServer(env, (line) => {
      p.tail.push(line)
      if (p.tail.length > 60) p.tail.shift()
      options.log?.(`[${p.name}] ${line}`)
    })
  }
  const ready = async (p: MedusaProcess) => {
    const timeout = options.bootTimeoutMs ?? 240_000
    await waitForHealth(p.url, p.child!, timeout).catch((error: Error) => {
      throw new Error(`${p.name}: ${error.message}\n${p.tail.join("\n")}`)
    })
    if (p.receiverUrl) await waitForHealth(p.receiverUrl, p.child!, 60_000)
  }

  const balancers: RoundRobin[] = []
  const stop = async () => {
    await Promise.all(processes.map((p) => stopProcess(p.child ?? undefined)))
    await Promise.all(balancers.map((b) => b.close()))
  }
  try {
    processes.forEach(launch)
    await Promise.all(processes.map(ready))
    const servers = processes.filter((p) => p.role === "server")
    const dashboard = (path: string) => path === "/app" || path.startsWith("/app/")
    balancers.push(await startRoundRobin(() => servers.map((p) => p.url), options.port ?? 0, undefined, dashboard))
    balancers.push(await startRoundRobin(() => servers.map((p) => p.receiverUrl!), options.webhookPort ?? 0))
  } catch (error) {
    await stop()
    throw error
  }
  return {
    processes,
    servers: processes.filter((p) => p.role === "server"),
    workers: processes.filter((p) => p.role === "worker"),
    url: balancers[0]!.url.replace("127.0.0.1", "localhost"),
    webhookUrl: `${balancers[1]!.url}/hooks/pgs/webhooks`,
    webhooksAnswered: balancers[1]!.answered,
    kill9: async (p) => {
      const child = p.child
      if (!child || child.exitCode !== null || child.signalCode !== null) return
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGKILL")
      await exited
    },
    restart: async (p) => {
      if (p.child && p.child.exitCode === null && p.child.signalCode === null) await stopProcess(p.child)
      launch(p)
      await ready(p)
    },
    alive: (p) => !!p.child && p.child.exitCode === null && p.child.signalCode === null,
    stop,
  }
}
