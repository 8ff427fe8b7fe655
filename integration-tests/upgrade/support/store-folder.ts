/**
 * The store the upgrade suite upgrades, as a store developer has it: a Medusa project folder of its own (dtc-starter's
 * backend, newcomer/project.ts) whose medusa-config.ts registers the plugin as README says, the plugin installed into
 * it from a tarball with `npm install <tarball>`, and its own CLI (`node_modules/@medusajs/cli/cli.js`, what
 * `npx medusa` runs: medusa-config.ts and the seed through ts-node) migrating and starting it.
 * Medusa's own packages are installed once per Medusa version into a base folder kept in
 * $TMPDIR/medusa-payment-pgs-stores; each run's store starts as a hard-linked copy of that base (seconds instead of an
 * install of Medusa), and both plugin installs happen in that copy on every run. Removed after the suite without
 * holding its worker.
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { medusaCli, type MedusaCli } from "../../../scripts/demo/medusa"
import { npmEnv, removeTreeInBackground, run, shellEnv, writeStarterBackend } from "../../newcomer/project"

export const STORES = path.join(os.tmpdir(), "medusa-payment-pgs-stores")
const PLUGIN = "medusa-payment-pgs"

const MEDUSA_CONFIG = `import { defineConfig, loadEnv } from "@medusajs/framework/utils"
import { pgsOptionsFromEnv } from "medusa-payment-pgs/config"

loadEnv(process.env.NODE_ENV || "development", process.cwd())

// Every option from its PGS_* variable; one object for the plugin and the providers (README, "Installing into a store").
const pgs = pgsOptionsFromEnv()

module.exports = defineConfig({
  projectConfig: {
    databaseUrl: process.env.DATABASE_URL,
    workerMode: (process.env.MEDUSA_WORKER_MODE as "shared" | "worker" | "server" | undefined) ?? "shared",
    http: { storeCors: "*", adminCors: "*", authCors: "*", jwtSecret: "upgrade-suite", cookieSecret: "upgrade-suite" },
  },
  // No dashboard: \`medusa start\` would serve a build this store never made.
  admin: { disable: true },
  plugins: [{ resolve: "medusa-payment-pgs", options: pgs }],
  modules: [
    {
      resolve: "@medusajs/medusa/payment",
      options: { providers: [{ resolve: "medusa-payment-pgs/providers/pgs", id: "pgs", options: pgs }] },
    },
  ],
})
`

export type StoreFolder = {
  dir: string
  /** The base store's key (Medusa's version and the starter's package.json): what the store was made with. */
  baseKey: string
  cli: MedusaCli
  /** `npm install <tarball>` in the store, as a store developer installs a release. */
  install(tarball: string): Promise<void>
  /**
   * The plugin the store has now: its version, what package.json says it was installed from, the integrity npm
   * recorded for what it installed (sha512 of the tarball), its migrations.
   */
  plugin(): { version: string; from: string; integrity: string; migrations: string[] }
  remove(): void
}

/** A new store folder with Medusa `medusa` installed and no plugin yet; `seed` is copied to its scripts/demo/seed.ts. */
export async function storeFolder(medusa: string, seed: string): Promise<StoreFolder> {
  const { base, key } = await baseStore(medusa)
  fs.mkdirSync(STORES, { recursive: true })
  const dir = fs.mkdtempSync(path.join(STORES, `run-${process.pid}-`))
  for (const file of ["package.json", "package-lock.json", "tsconfig.json"]) fs.copyFileSync(path.join(base, file), path.join(dir, file))
  execFileSync("cp", ["-al", path.join(base, "node_modules"), path.join(dir, "node_modules")], { stdio: ["ignore", "ignore", "pipe"] })
  // npm rewrites its record of the installed tree in place: the store gets a copy of its own, not the base's file.
  const record = path.join(dir, "node_modules/.package-lock.json")
  fs.rmSync(record)
  fs.copyFileSync(path.join(base, "node_modules/.package-lock.json"), record)
  fs.writeFileSync(path.join(dir, "medusa-config.ts"), MEDUSA_CONFIG)
  fs.mkdirSync(path.join(dir, "scripts/demo"), { recursive: true })
  fs.copyFileSync(seed, path.join(dir, "scripts/demo/seed.ts"))
  const installed = path.join(dir, "node_modules", PLUGIN)
  return {
    dir,
    baseKey: key,
    cli: medusaCli(dir, [path.join(dir, "node_modules/@medusajs/cli/cli.js")], () => shellEnv()),
    install: async (tarball) => void (await run(`npm install ${JSON.stringify(tarball)}`, dir, npmEnv())),
    plugin: () => ({
      version: JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")).version,
      from: JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")).dependencies[PLUGIN],
      integrity: JSON.parse(fs.readFileSync(path.join(dir, "package-lock.json"), "utf8")).packages[`node_modules/${PLUGIN}`]?.integrity ?? "",
      migrations: fs
        .readdirSync(path.join(installed, ".medusa/server/src/modules/pgs/migrations"))
        .filter((f) => /^Migration\d+\.js$/.test(f))
        .map((f) => f.replace(/\.js$/, ""))
        .sort(),
    }),
    remove: () => removeTreeInBackground(dir),
  }
}

/** Medusa's packages installed into a starter backend, once per Medusa version and package.json on this machine. */
async function baseStore(medusa: string): Promise<{ base: string; key: string }> {
  const draft = fs.mkdtempSync(path.join(os.tmpdir(), "pgs-store-draft-"))
  writeStarterBackend(draft, "pgs-upgrade-store", medusa)
  const key = createHash("sha1").update(fs.readFileSync(path.join(draft, "package.json"))).digest("hex").slice(0, 12)
  const dir = path.join(STORES, `base-${medusa}-${key}`)
  if (fs.existsSync(dir)) {
    fs.rmSync(draft, { recursive: true, force: true })
    return { base: dir, key }
  }
  // Installed beside its place and renamed when whole, so a half-made base is never copied.
  fs.mkdirSync(STORES, { recursive: true })
  const partial = `${dir}.partial-${process.pid}`
  fs.rmSync(partial, { recursive: true, force: true })
  fs.renameSync(draft, partial)
  try {
    await run("npm install", partial, npmEnv())
    if (!fs.existsSync(dir)) fs.renameSync(partial, dir)
  } catch (error) {
    if (!fs.existsSync(dir)) throw error // another run made it first otherwise
  } finally {
    if (fs.existsSync(partial)) removeTreeInBackground(partial)
  }
  return { base: dir, key }
}
