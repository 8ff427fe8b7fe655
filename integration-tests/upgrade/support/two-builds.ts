/**
 * Two builds serving one store, as a rolling deploy leaves it for a while: one `medusa start` server of each build
 * (MEDUSA_WORKER_MODE=server, its own webhook receiver), both on one database and one Redis, behind the topology's
 * round-robin balancers (scripts/topology/round-robin.ts): one for the store and admin APIs, one for the gateway's
 * webhooks. Each balancer sends every request to both servers in turn, or to the one build a step pins it to, so a
 * test says which build answers each shopper step and which receives each webhook. A worker (subscribers, jobs) of
 * either build is started and stopped on demand: while none runs, the webhooks the servers record wait in Redis.
 * Every line a process logs is kept; with LOG_LEVEL=error, what Medusa's logger prints is an error.
 */
import type { ChildProcess } from "node:child_process"
import type * as Launcher from "../../../scripts/demo/medusa"
import { freePort } from "../../../scripts/demo/flags"
import { startRoundRobin, type RoundRobin } from "../../../scripts/topology/round-robin"

export type Build = { name: string; cli: typeof Launcher }
type Env = Launcher.Env

export type Process = { name: string; build: Build; url: string; receiverUrl: string | null; child: ChildProcess; lines: string[] }

export type TwoBuilds = {
  /** The store and admin APIs' balancer. */
  url: string
  /** The gateway's webhook address: the balancer in front of both receivers. */
  webhookUrl: string
  servers: [Process, Process]
  /** Every process started so far (servers and workers), with what each logged. */
  processes: Process[]
  /** Store and admin requests go to this build's server only (null: both in turn). */
  pin(build: Build | null): void
  /** Webhooks go to this build's receiver only (null: both in turn). */
  pinWebhooks(build: Build | null): void
  /** 2xx answers per server (its URL) through the store balancer, and per receiver through the webhook balancer. */
  answered: Record<string, number>
  webhooksAnswered: Record<string, number>
  /** Starts a worker of this build and waits until it answers /health. */
  startWorker(build: Build): Promise<Process>
  stopWorker(p: Process): Promise<void>
  stop(): Promise<void>
}

const BOOT_MS = 300_000

export async function startTwoBuilds(builds: [Build, Build], env: Env, log?: (line: string) => void): Promise<TwoBuilds> {
  let storePin: Build | null = null
  let webhookPin: Build | null = null
  const servers: Process[] = []
  const processes: Process[] = []
  // Re-read at each request: a pin set between two steps takes effect at the next one.
  const serving = (pin: () => Build | null, url: (p: Process) => string) => () => servers.filter((p) => !pin() || p.build === pin()).map(url)
  const stores: RoundRobin = await startRoundRobin(serving(() => storePin, (p) => p.url), 0)
  const receivers: RoundRobin = await startRoundRobin(serving(() => webhookPin, (p) => p.receiverUrl!), 0)
  // The store's address, as the gateway's return URLs name it: the balancer's.
  const backend = stores.url.replace("127.0.0.1", "localhost")

  const launch = async (build: Build, role: "server" | "worker", extra: Env): Promise<Process> => {
    const port = await freePort(0)
    const receiverPort = role === "server" ? await freePort(0) : null
    const name = `${role} ${build.name}`
    const lines: string[] = []
    const child = build.cli.startServer(
      {
        ...env,
        ...extra,
        PGS_BACKEND_URL: backend,
        MEDUSA_WORKER_MODE: role,
        PORT: String(port),
        PGS_WEBHOOK_RECEIVER_PORT: receiverPort ? String(receiverPort) : "",
        PGS_WEBHOOK_RECEIVER_HOST: "127.0.0.1",
      },
      (line) => (lines.push(line), log?.(`[${name}] ${line}`)),
    )
    const p: Process = { name, build, url: `http://127.0.0.1:${port}`, receiverUrl: receiverPort ? `http://127.0.0.1:${receiverPort}` : null, child, lines }
    processes.push(p)
    await build.cli.waitForHealth(p.url, child, BOOT_MS).catch((error: Error) => {
      throw new Error(`${name}: ${error.message}\n${lines.slice(-60).join("\n")}`)
    })
    if (p.receiverUrl)
      await build.cli.waitForHealth(p.receiverUrl, child, BOOT_MS).catch((error: Error) => {
        throw new Error(`${name}'s webhook receiver: ${error.message}\n${lines.slice(-60).join("\n")}`)
      })
    return p
  }

  const stop = async () => {
    await Promise.all(processes.map((p) => p.build.cli.stopProcess(p.child)))
    await Promise.all([stores.close(), receivers.close()])
  }
  try {
    // Both boot at once; the first in the list is the first upstream of each balancer.
    const started = await Promise.all(builds.map((b) => launch(b, "server", {})))
    servers.push(...started)
  } catch (error) {
    await stop()
    throw error
  }
  return {
    url: backend,
    webhookUrl: `${receivers.url}/hooks/pgs/webhooks`,
    servers: servers as [Process, Process],
    processes,
    pin: (b) => (storePin = b),
    pinWebhooks: (b) => (webhookPin = b),
    answered: stores.answered,
    webhooksAnswered: receivers.answered,
    startWorker: (build) => launch(build, "worker", { MEDUSA_ADMIN: "false" }),
    stopWorker: (p) => p.build.cli.stopProcess(p.child),
    stop,
  }
}
