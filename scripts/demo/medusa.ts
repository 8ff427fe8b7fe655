/**
 * Runs Medusa's CLI for the store in this checkout (the repository root's medusa-config.ts loads the plugin from
 * src/): TypeScript through tsx, as `medusa develop` would, without a build step.
 */
import { spawn, type ChildProcess } from "node:child_process"
import path from "node:path"

const ROOT = path.resolve(__dirname, "../..")
// The CLI's own entry, not its bin (cli.js): the bin first tries ts-node, which this store does not use (tsx loads
// the TypeScript), and prints its "Cannot find module 'ts-node'" stack trace (FRAMEWORK-NOTES 35). The bin's
// other step, dotenv, is medusa-config's loadEnv here.
const CLI = path.join(ROOT, "node_modules/@medusajs/cli/dist/index.js")

export type Env = Record<string, string | undefined>

/** Runs a CLI command to its end; its output is kept and shown only when it fails. */
export function runCli(args: string[], env: Env): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`medusa ${args.join(" ")} exited with ${code}:\n${output.slice(-4000)}`))))
  })
}

/** Starts `medusa start` (server, worker or both in one process); logs go to `log` when given. */
export function startServer(env: Env, log?: (line: string) => void): ChildProcess {
  return spawnCli(["start"], env, log)
}

/** Starts any CLI command as a child process (a drill may kill it); its output lines go to `log`. */
export function spawnCli(args: string[], env: Env, log?: (line: string) => void): ChildProcess {
  const child = spawn(process.execPath, ["--import", "tsx", CLI, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] })
  const forward = (d: Buffer) => d.toString().split("\n").filter((l) => l.trim()).forEach((l) => log?.(l))
  child.stdout!.on("data", forward)
  child.stderr!.on("data", forward)
  return child
}

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
