/**
 * The drills' own Redis: a redis-server on a free port that the suite may kill and start again (the machine's
 * shared Redis on 6379 is never touched). Without a redis-server binary the suite is skipped, saying why.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import net from "node:net"
import { freePort } from "../../../scripts/demo/flags"
import { waitFor } from "../../support/sandbox"

export type OwnRedis = {
  url: string
  port: number
  /** One command's reply: an integer, a string, or null (nil). */
  command(...args: string[]): Promise<number | string | null>
  restart(): Promise<void>
  kill(): Promise<void>
  start(): Promise<void>
  stop(): Promise<void>
}

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

/** Sends one command (RESP) and reads its reply; enough for the integer and string replies the drills read. */
export function command(port: number, args: string[]): Promise<number | string | null> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1")
    let reply = ""
    socket.setTimeout(5000, () => (socket.destroy(), reject(new Error(`redis ${args[0]}: no reply`))))
    socket.on("error", reject)
    socket.on("connect", () => socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join("")}`))
    socket.on("data", (d) => {
      reply += d.toString()
      const parsed = /^([:+\-])(.*)\r\n$/.exec(reply) ?? /^\$(-1)\r\n$/.exec(reply) ?? /^\$\d+\r\n([\s\S]*)\r\n$/.exec(reply)
      if (!parsed) return
      socket.destroy()
      if (parsed[1] === "-") reject(new Error(`redis ${args[0]}: ${parsed[2]}`))
      else if (parsed[1] === ":") resolve(Number(parsed[2]))
      else if (parsed[1] === "+") resolve(parsed[2]!)
      else if (parsed[1] === "-1") resolve(null)
      else resolve(parsed[1]!)
    })
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
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    command: (...args) => command(port, args),
    start,
    kill,
    restart: async () => (await kill(), await start()),
    stop: kill,
  }
}
