/**
 * The previous release, rebuilt from the commit CHANGELOG.md names for it ("Previous release: X.Y.Z, commit `abc`"
 * in the Unreleased entry): `git archive` of that commit into a folder of its own and `npm ci` there (buildOf);
 * then its plugin packed as a store gets it (packedRelease: `npm pack`, whose prepack runs that tree's
 * `medusa plugin:build`), which the upgrade suite installs into its store. The side-by-side suite runs rebuilt
 * commits (HEAD, a release to run beside) as their own development store instead (medusa-config.ts loading src/
 * through tsx, through that tree's scripts/demo/medusa.ts). The installed tree and the tarball are kept per commit in
 * the temp folder: a commit's files never change, and `npm ci` and the build are most of a first run's time.
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import type * as Launcher from "../../../scripts/demo/medusa"
import { npmEnv, removeTreeInBackground, run, shellEnv } from "../../newcomer/project"
import { pluginTarball } from "../../newcomer/packed"

const ROOT = path.resolve(__dirname, "../../..")

/** A commit of this repository rebuilt in a folder of its own, with its own node_modules and CLI launcher. */
export type ReleaseBuild = { version: string; commit: string; dir: string; cli: typeof Launcher }
export type PreviousRelease = ReleaseBuild

/** The release before this tree's, as CHANGELOG.md names it. */
export function previousReleaseOf(changelog = fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8")): { version: string; commit: string } {
  const m = /Previous release: ([0-9][^,\s]*), commit `([0-9a-f]{7,40})`/.exec(changelog)
  if (!m) throw new Error('CHANGELOG.md names no previous release: its newest entry should say "Previous release: X.Y.Z, commit `<sha>`"')
  return { version: m[1]!, commit: m[2]! }
}

const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim()

/** The full id of the commit, or an error saying why this clone cannot rebuild it. */
function resolveCommit(commit: string): string {
  try {
    return git("rev-parse", "--verify", "--quiet", `${commit}^{commit}`)
  } catch {
    const shallow = (() => {
      try {
        return git("rev-parse", "--is-shallow-repository") === "true"
      } catch {
        return false
      }
    })()
    throw new Error(
      shallow
        ? `The upgrade suite rebuilds the previous release from commit ${commit}, but this clone is shallow and does not have it: clone with full history (git fetch --unshallow).`
        : `The upgrade suite rebuilds the previous release from commit ${commit} (CHANGELOG.md), which this repository does not have.`,
    )
  }
}

/** Extracts and installs the previous release (once per commit on this machine) and loads its CLI launcher. */
export async function previousRelease(): Promise<PreviousRelease> {
  const { version, commit } = previousReleaseOf()
  return buildOf(version, commit)
}

/** The folder every rebuilt commit is kept in, one sub-folder per full commit id. */
export const RELEASES = path.join(os.tmpdir(), "medusa-payment-pgs-releases")

/** The commit that HEAD names, in full. */
export const headCommit = () => git("rev-parse", "HEAD")

/**
 * Extracts `commit` (git archive) into its folder under RELEASES and installs it, once per commit on this machine,
 * and loads its CLI launcher. `npm ci` only when no tree installed here has the same package-lock.json: otherwise
 * that tree's node_modules is copied as hard links (seconds, not minutes; nothing in a cached tree is ever edited).
 * `transient` trees (HEAD rebuilt for the side-by-side suite, a new one per commit) are pruned to the newest few.
 */
export async function buildOf(version: string, commit: string, options: { transient?: boolean } = {}): Promise<ReleaseBuild> {
  const sha = resolveCommit(commit)
  const dir = path.join(RELEASES, sha)
  if (!fs.existsSync(path.join(dir, ".installed"))) {
    // Made beside its final place and renamed when whole, so an interrupted install is never taken for a finished one.
    const partial = `${dir}.partial-${process.pid}`
    fs.rmSync(partial, { recursive: true, force: true })
    fs.mkdirSync(partial, { recursive: true })
    try {
      execFileSync("bash", ["-c", `git archive ${sha} | tar -x -C ${JSON.stringify(partial)}`], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] })
      const same = installedWithLock(fs.readFileSync(path.join(partial, "package-lock.json")))
      if (same) execFileSync("cp", ["-al", path.join(same, "node_modules"), path.join(partial, "node_modules")], { stdio: ["ignore", "ignore", "pipe"] })
      else await run("npm ci --prefer-offline --no-audit --no-fund", partial, shellEnv())
      if (options.transient) fs.writeFileSync(path.join(partial, ".transient"), "")
      fs.writeFileSync(path.join(partial, ".installed"), `${sha}\n`)
      // Another run may have finished first and be using its tree: keep theirs, never removed under it (a check
      // then a removal here could remove a tree renamed in between). rename refuses a non-empty folder (ENOTEMPTY):
      // the catch below then takes theirs. A folder there without .installed (a removal cut short) goes aside first.
      if (fs.existsSync(dir) && !fs.existsSync(path.join(dir, ".installed")))
        try {
          fs.renameSync(dir, `${partial}.stale`)
        } catch {} // another run moved it aside first: the rename below decides
      fs.renameSync(partial, dir)
    } catch (error) {
      if (!fs.existsSync(path.join(dir, ".installed"))) throw error
    } finally {
      fs.rmSync(partial, { recursive: true, force: true })
      fs.rmSync(`${partial}.stale`, { recursive: true, force: true })
    }
    if (options.transient) pruneTransient(dir)
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cli = require(path.join(dir, "scripts/demo/medusa.ts")) as typeof Launcher
  return { version, commit: sha, dir, cli }
}

/**
 * The plugin's tarball of a rebuilt commit, as that commit's README makes it (`npm pack`; its prepack runs `medusa
 * plugin:build`), once per commit: built in a fresh `git archive` beside the installed tree, its node_modules a copy
 * of that tree's as hard links (a symbolic link would make TypeScript name the other folder in the declarations and
 * refuse to emit), so the kept tree is never built in. Kept in RELEASES/packed-<sha>, renamed there when whole.
 */
export async function packedRelease(build: ReleaseBuild): Promise<string> {
  const dir = path.join(RELEASES, `packed-${build.commit}`)
  if (!fs.existsSync(dir)) {
    const partial = `${dir}.partial-${process.pid}`
    const tree = `${dir}.tree-${process.pid}`
    for (const d of [partial, tree]) fs.rmSync(d, { recursive: true, force: true })
    fs.mkdirSync(partial)
    fs.mkdirSync(tree)
    try {
      execFileSync("bash", ["-c", `git archive ${build.commit} | tar -x -C ${JSON.stringify(tree)}`], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] })
      execFileSync("cp", ["-al", path.join(build.dir, "node_modules"), path.join(tree, "node_modules")], { stdio: ["ignore", "ignore", "pipe"] })
      await run(`npm pack --pack-destination ${JSON.stringify(partial)}`, tree, npmEnv())
      if (!fs.existsSync(dir)) fs.renameSync(partial, dir)
    } catch (error) {
      if (!fs.existsSync(dir)) throw error // another run packed it first otherwise
    } finally {
      fs.rmSync(partial, { recursive: true, force: true })
      removeTreeInBackground(tree) // its node_modules: some 100,000 links
    }
  }
  return pluginTarball(dir)
}

/**
 * A tree whose node_modules is what `npm ci` of this package-lock.json installs: a finished tree under RELEASES
 * installed from this exact lock, or else this checkout when its lock pins the same packages (a release's lock differs
 * from the next's only in the root package's own version while no dependency changed) and its node_modules is exactly
 * that lock installed; or null. On a fresh machine (CI) this spares the previous release's `npm ci` and HEAD's.
 */
function installedWithLock(lock: Buffer): string | null {
  return installedUnderReleases(lock) ?? (checkoutInstalls(lock) ? ROOT : null)
}

/** The packages a lock pins, its root package (name and version) left out. */
const pinned = (lock: Buffer | string) => {
  const { packages } = JSON.parse(lock.toString()) as { packages: Record<string, { optional?: boolean; devOptional?: boolean }> }
  delete packages[""]
  return packages
}

/**
 * Whether this checkout's node_modules is `lock` installed: the same pinned packages as its own package-lock.json,
 * and npm's record of what it installed (node_modules/.package-lock.json) holds each of them unchanged and nothing
 * else; only optional packages for other platforms (which npm skips) may be missing from it.
 */
function checkoutInstalls(lock: Buffer): boolean {
  try {
    const wanted = pinned(lock)
    const own = pinned(fs.readFileSync(path.join(ROOT, "package-lock.json")))
    const installed = pinned(fs.readFileSync(path.join(ROOT, "node_modules/.package-lock.json")))
    const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
    if (!same(wanted, own)) return false
    if (Object.keys(installed).some((name) => !same(installed[name], wanted[name]))) return false
    return Object.entries(wanted).every(([name, entry]) => name in installed || entry.optional || entry.devOptional)
  } catch {
    return false // no install here, or a lock npm did not write
  }
}

/** A finished tree under RELEASES installed from this exact package-lock.json, or null. */
function installedUnderReleases(lock: Buffer): string | null {
  if (!fs.existsSync(RELEASES)) return null
  for (const name of fs.readdirSync(RELEASES)) {
    const tree = path.join(RELEASES, name)
    if (!fs.existsSync(path.join(tree, ".installed")) || !fs.existsSync(path.join(tree, "node_modules"))) continue
    const theirs = path.join(tree, "package-lock.json")
    if (fs.existsSync(theirs) && fs.readFileSync(theirs).equals(lock)) return tree
  }
  return null
}

/** Keeps `keep` and the two newest other transient trees (by install time); a run still using a removed one keeps its open files. */
function pruneTransient(keep: string) {
  const transient = fs
    .readdirSync(RELEASES)
    .map((name) => path.join(RELEASES, name))
    .filter((tree) => tree !== keep && fs.existsSync(path.join(tree, ".transient")) && fs.existsSync(path.join(tree, ".installed")))
    .sort((a, b) => fs.statSync(path.join(b, ".installed")).mtimeMs - fs.statSync(path.join(a, ".installed")).mtimeMs)
  for (const tree of transient.slice(2)) fs.rmSync(tree, { recursive: true, force: true })
}
