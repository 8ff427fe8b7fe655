/**
 * Runs Medusa's CLI for the store in this checkout (the repository root's medusa-config.ts loads the plugin from
 * src/): TypeScript through tsx, as `medusa develop` would, without a build step. `medusaCli` runs another store
 * folder's the same way.
 */
import { spawn, type ChildProcess } from "node:child_process"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")
// The CLI's own entry, not its bin (cli.js): the bin first tries ts-node, which this store does not use (tsx loads
// the TypeScript), and prints its "Cannot find module 'ts-node'" stack trace (FRAMEWORK-NOTES 35). The bin's
// other step, dotenv, is medusa-config's loadEnv here.
const CLI = path.join(ROOT, "node_modules/@medusajs/cli/dist/index.js")

export type Env = Record<string, string | undefined>

/** Medusa's CLI of one store folder: what the demo, the suites and a store's `npx medusa` run alike. */
export type MedusaCli = {
  /** Runs a CLI command to its end; its output is kept and shown only when it fails. */
  runCli(args: string[], env: Env): Promise<void>
  /** Starts any CLI command as a child process (a drill may kill it); its output lines go to `log`. */
  spawnCli(args: string[], env: Env, log?: (line: string) => void): ChildProcess
  /** Starts `medusa start` (server, worker or both in one process); logs go to `log` when given. */
  startServer(env: Env, log?: (line: string) => void): ChildProcess
}

/**
 * The CLI as `node <nodeArgs> <args>` in `cwd`, each variable of `env` over `base()`: this checkout's through tsx
 * (below), an installed store's through its own `node_modules/@medusajs/cli/cli.js` (integration-tests/upgrade).
 */
export function medusaCli(cwd: string, nodeArgs: string[], base: () => NodeJS.ProcessEnv = () => process.env): MedusaCli {
  const spawnCli = (args: string[], env: Env, log?: (line: string) => void) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], { cwd, env: { ...base(), ...env }, stdio: ["ignore", "pipe", "pipe"] })
    const forward = (d: Buffer) => d.toString().split("\n").filter((l) => l.trim()).forEach((l) => log?.(l))
    child.stdout!.on("data", forward)
    child.stderr!.on("data", forward)
    return child
  }
  const runCli = (args: string[], env: Env) =>
    new Promise<void>((resolve, reject) => {
      const lines: string[] = []
      const child = spawnCli(args, env, (line) => lines.push(line))
      child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`medusa ${args.join(" ")} exited with ${code}:\n${lines.join("\n").slice(-4000)}`))))
    })
  return { runCli, spawnCli, startServer: (env, log) => spawnCli(["start"], env, log) }
}

export const { runCli, spawnCli, startServer } = medusaCli(ROOT, ["--import", "tsx", CLI])

/** Polls GET /health until it answers 200 or the deadline passes (boot takes ~15 s; the admin's first build more). */
export async function waitForHealth(url: string, child: ChildProcess, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`Medusa exited with ${child.exitCode ?? child.signalCode} while booting`)
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false)
    if (ok) return
    await new Promise((r) => setTimeout(r, 500))
  }
  throw new Error(`Medusa did not answer ${url}/health within ${timeoutMs / 1000} s`)
}

export function stopProcess(child: ChildProcess | undefined, timeoutMs = 10_000): Promise<void> {
  // A process killed by a signal has no exit code, only a signal code: it has exited all the same.
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs)
    child.once("exit", () => (clearTimeout(timer), resolve()))
    child.kill("SIGTERM")
  })
}
