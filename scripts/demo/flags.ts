/** The demo's command line. */
import net from "node:net"

export type DemoFlags = {
  reset: boolean
  split: boolean
  quiet: boolean
  port: number
  storefrontPort: number
  sandboxPort: number
  dbPort: number
  webhookPort: number
  /** Separate Medusa processes (0 and 0: one process doing both, as without REDIS_URL). */
  servers: number
  workers: number
  /** More storefront origins allowed to call the store API (repeatable --cors ORIGIN). */
  cors: string[]
  /** A sandbox already running, used instead of the demo's own (--sandbox-url URL). */
  sandboxUrl: string | null
  total: number
}

export function parseFlags(argv: string[]): DemoFlags {
  const value = (name: string, fallback: number) => {
    const i = argv.indexOf(name)
    if (i < 0) return fallback
    const n = Number(argv[i + 1])
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${name} needs a port number (0 picks a free one)`)
    return n
  }
  const count = (name: string, fallback: number, max: number) => {
    const i = argv.indexOf(name)
    if (i < 0) return fallback
    const n = Number(argv[i + 1])
    if (!Number.isInteger(n) || n < 0 || n > max) throw new Error(`${name} needs a number of processes from 0 to ${max}`)
    return n
  }
  const known = new Set(["--reset", "--split", "--quiet", "--port", "--storefront-port", "--sandbox-port", "--db-port", "--webhook-port", "--cors", "--servers", "--workers", "--sandbox-url"])
  for (const arg of argv) if (arg.startsWith("--") && !known.has(arg)) throw new Error(`unknown flag ${arg} (known: ${[...known].join(", ")})`)
  // --split is --servers 1 --workers 1.
  const split = argv.includes("--split")
  const servers = count("--servers", split ? 1 : 0, 16)
  const workers = count("--workers", split ? 1 : 0, 16)
  if ((servers || workers) && (!servers || !workers)) throw new Error("--servers and --workers go together: at least one server (HTTP) and one worker (jobs)")
  if (servers && !process.env.REDIS_URL)
    throw new Error("separate server and worker processes share events, workflows, locks and the cache through Redis: set REDIS_URL")
  const sandboxUrl = argv.includes("--sandbox-url") ? httpBase(argv[argv.indexOf("--sandbox-url") + 1]) : null
  if (sandboxUrl && argv.includes("--sandbox-port")) throw new Error("--sandbox-url and --sandbox-port do not go together: --sandbox-port is for the demo's own sandbox")
  return {
    reset: argv.includes("--reset"),
    split: servers > 0,
    servers,
    workers,
    quiet: argv.includes("--quiet"),
    port: value("--port", 9000),
    storefrontPort: value("--storefront-port", 8000),
    sandboxPort: value("--sandbox-port", 4010),
    dbPort: value("--db-port", 54329),
    webhookPort: value("--webhook-port", 9100),
    cors: argv.flatMap((arg, i) => (arg === "--cors" ? [corsOrigin(argv[i + 1])] : [])),
    sandboxUrl,
    total: 6,
  }
}

/** An http(s) origin as browsers send it (scheme, host, port; no path): the value of one --cors. */
function corsOrigin(value: string | undefined): string {
  const url = URL.canParse(value ?? "") ? new URL(value!) : null
  if (!url || !/^https?:$/.test(url.protocol) || url.origin !== value!.replace(/\/$/, "").toLowerCase())
    throw new Error(`--cors needs an http(s) origin such as http://localhost:3000, got ${value === undefined ? "nothing" : `"${value}"`}`)
  return url.origin
}

/** The base URL of a running sandbox (http(s), no query), without a trailing slash: the value of --sandbox-url. */
function httpBase(value: string | undefined): string {
  const url = URL.canParse(value ?? "") ? new URL(value!) : null
  if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash)
    throw new Error(`--sandbox-url needs the sandbox's http(s) URL such as http://localhost:4010, got ${value === undefined ? "nothing" : `"${value}"`}`)
  return url.href.replace(/\/+$/, "")
}

/** The port asked for when it is free, else (or for 0) any free port. */
export function freePort(preferred: number): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | null>((resolve) => {
      const server = net.createServer()
      server.once("error", () => resolve(null))
      server.listen(port, "127.0.0.1", () => {
        const got = (server.address() as net.AddressInfo).port
        server.close(() => resolve(got))
      })
    })
  return tryPort(preferred).then((p) => p ?? tryPort(0).then((q) => q!))
}
