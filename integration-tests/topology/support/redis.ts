/**
 * The drills' own Redis: a redis-server on a free port that the suite may kill and start again (the machine's
 * shared Redis on 6379 is never touched). Without a redis-server binary the suite is skipped, saying why.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import net from "node:net"
import { freePort } from "../../../scripts/demo/flags"
import { waitFor } from "../../support/sandbox"

export type OwnRedis = { url: string; port: number; restart(): Promise<void>; kill(): Promise<void>; start(): Promise<void>; stop(): Promise<void> }

/** Why this machine cannot run the drills' Redis, or null when it can. */
export function redisUnavailable(): string | null {
  const found = spawnSync("redis-server", ["--version"], { encoding: "utf8" })
  if (found.error || found.status !== 0) return "no redis-server binary on PATH (the drills start and restart their own Redis)"
  return null
}

/** PONG from the server on this port, or false. */
export function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1")
    const done = (ok: boolean) => (socket.destroy(), resolve(ok))
    socket.setTimeout(1000, () => done(false))
    socket.on("error", () => done(false))
    socket.on("connect", () => socket.write("PING\r\n"))
    socket.on("data", (d) => done(d.toString().startsWith("+PONG")))
  })
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort(0)
  let child: ChildProcess | null = null
  const start = async () => {
    // No persistence: a restart loses everything Redis held, the worst case for the plugin.
    child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: "ignore" })
    await waitFor(() => ping(port), { timeoutMs: 20_000, what: `redis-server on ${port}` })
  }
  const kill = async () => {
    const c = child
    if (!c || c.exitCode !== null || c.signalCode !== null) return
    const exited = new Promise((r) => c.once("exit", r))
    c.kill("SIGKILL")
    await exited
  }
  await start()
  return { url: `redis://127.0.0.1:${port}`, port, start, kill, restart: async () => (await kill(), await start()), stop: kill }
}
