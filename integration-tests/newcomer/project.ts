/**
 * A store developer's throwaway Medusa project, made the way README says: both packages packed with `npm pack`,
 * installed from the tarballs into a fresh project (its own package.json, tsconfig, medusa-config and database),
 * configured by `npx medusa-payment-pgs sandbox --write-env .env`, migrated and started with Medusa's own CLI.
 * medusa-config.ts and the install commands are README's own blocks, so a wrong README step fails the suite.
 */
import { spawn, type ChildProcess } from "node:child_process"
import fs from "node:fs"
import path from "node:path"

export const ROOT = path.resolve(__dirname, "../..")

/** The fenced block that follows `<!-- newcomer: NAME -->` in README.md. */
export function readmeBlock(name: string): string {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8")
  const marker = `<!-- newcomer: ${name} -->`
  const at = readme.indexOf(marker)
  if (at < 0) throw new Error(`README.md has no block marked ${marker}`)
  const block = /```[a-z]*\n([\s\S]*?)```/.exec(readme.slice(at))
  if (!block) throw new Error(`README.md has no fenced block after ${marker}`)
  return block[1]
}

/** The lines of a README block, without comments. */
export const commands = (block: string) => block.split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter((l) => l && !l.startsWith("#"))


/** The environment a developer's shell has: none of jest's loader flags or this repository's test settings. */
export function shellEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = { ...process.env }
  for (const key of Object.keys(env)) if (/^(NODE_OPTIONS|JEST_|PGS_|DB_|DATABASE_URL|MEDUSA_|LOG_LEVEL|npm_)/.test(key)) delete env[key]
  return { ...env, MEDUSA_DISABLE_TELEMETRY: "true", ...extra }
}

// npm as a developer runs it, with the cache this machine already has.
export const npmEnv = () => shellEnv({ npm_config_prefer_offline: "true", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" })

/**
 * A backend project shaped like dtc-starter's apps/backend, before anything is installed: Medusa's packages at
 * `medusa`, ts-node with swc (how its CLI loads medusa-config.ts and scripts), its tsconfig.
 */
export function writeStarterBackend(dir: string, name: string, medusa: string) {
  fs.mkdirSync(path.join(dir, "src/scripts"), { recursive: true })
  const pkg = {
    name,
    private: true,
    scripts: { dev: "medusa develop", start: "medusa start" },
    dependencies: Object.fromEntries(["admin-sdk", "cli", "framework", "medusa"].map((p) => [`@medusajs/${p}`, medusa])),
    devDependencies: { "@swc/core": "1.16.18", "@types/node": "^20.12.11", "ts-node": "^10.9.2", typescript: "^5.6.2" },
  }
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg, null, 2))
  const tsconfig = {
    compilerOptions: {
      target: "ES2021", esModuleInterop: true, module: "Node16", moduleResolution: "Node16", emitDecoratorMetadata: true,
      experimentalDecorators: true, skipLibCheck: true, declaration: false, outDir: "./.medusa/server", rootDir: "./",
      jsx: "react-jsx", resolveJsonModule: true, strictNullChecks: true,
    },
    "ts-node": { swc: true },
    include: ["**/*", ".medusa/types/*"],
    exclude: ["node_modules", ".medusa/server", ".medusa/admin", ".cache"],
  }
  fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(tsconfig, null, 2))
}

/** Runs a shell command line in `cwd` to its end; the output is kept and shown only when it fails. */
export function run(command: string, cwd: string, env: NodeJS.ProcessEnv = shellEnv()): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", command], { cwd, env, stdio: ["ignore", "pipe", "pipe"] })
    let output = ""
    child.stdout.on("data", (d) => (output += d))
    child.stderr.on("data", (d) => (output += d))
    child.on("exit", (code) => (code === 0 ? resolve(output) : reject(new Error(`\`${command}\` in ${cwd} exited with ${code}:\n${output.slice(-6000)}`))))
  })
}

export type Background = { child: ChildProcess; output: () => string }

/**
 * Starts a long-running command line in its own process group and resolves once it is ready: `ready` appears in
 * its output, or answers true when polled.
 */
export function startBackground(command: string, cwd: string, ready: RegExp | (() => Promise<boolean>), timeoutMs: number, env = shellEnv()): Promise<Background> {
  const child = spawn("bash", ["-c", `exec ${command}`], { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
  let output = ""
  let settled = false
  return new Promise((resolve, reject) => {
    const finish = (error?: Error) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      clearInterval(poll)
      if (error) reject(error)
      else resolve({ child, output: () => output })
    }
    const timer = setTimeout(() => finish(new Error(`\`${command}\` was not ready within ${timeoutMs / 1000} s:\n${output.slice(-6000)}`)), timeoutMs)
    const poll = setInterval(() => {
      if (typeof ready === "function") ready().then((ok) => ok && finish(), () => undefined)
    }, 500)
    const onData = (d: Buffer) => {
      output += d.toString()
      if (ready instanceof RegExp && ready.test(output)) finish()
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => finish(new Error(`\`${command}\` exited with ${code}:\n${output.slice(-6000)}`)))
  })
}

/** Whether GET url answers 200. */
export const answers = (url: string) => () => fetch(url).then((r) => r.ok, () => false)

/** Stops a background command and everything it started. */
export async function stopBackground(background: Background | undefined): Promise<void> {
  const child = background?.child
  if (!child || child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once("exit", r))
  process.kill(-child.pid!, "SIGTERM")
  const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000)
  await exited
  clearTimeout(timer)
}

/**
 * Removes a folder of many files (a project's node_modules: some 100,000): its files by 16 `rm` at once, then the
 * rest. On a disk mounted with `discard` each freed file waits for the device, and the waits of 16 processes
 * overlap: one `rm -rf` took about 3 minutes per project on the 2-core machine, 16 take a fifth of that.
 * Not waited for: a detached process of its own goes on after the suite, so no jest worker sits waiting on the
 * disk (some 20 s a project on the 2-core machine under load) while other suites could run.
 */
export function removeTreeInBackground(dir: string): void {
  const removal = spawn("bash", ["-c", `find '${dir}' -type f -print0 | xargs -0 -r -n 500 -P 16 rm -f; rm -rf '${dir}'`], {
    cwd: path.dirname(dir),
    detached: true,
    stdio: "ignore",
  })
  removal.unref()
}
