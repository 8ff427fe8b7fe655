/**
 * This tree's two packages, packed by README's pack block (`npm pack`, whose prepack runs `medusa plugin:build`),
 * once per content of the tree on this machine, for every suite that installs them: the newcomer suite into fresh
 * projects, the upgrade suite into a store that ran the previous release. Kept in $TMPDIR/medusa-payment-pgs-packed/
 * <key>, the key a hash of every file git would take (tracked and untracked, not ignored) outside the test folders,
 * as they are in the work tree: an edit to anything the packages are made from packs again. One pack at a time on
 * this machine (a lock file): `npm pack` builds into this checkout's .medusa/, and a worker that asks while another
 * packs waits for that pack instead of building the same tree a second time. Made beside its place, renamed whole,
 * and kept under its key only if the tree still has that key after packing (else used by this run alone). Packs
 * unused for PRUNE_AFTER_MS are removed, so a suite still running keeps its tarballs.
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { waitFor } from "../support/sandbox"
import { commands, npmEnv, readmeBlock, ROOT, run } from "./project"

export const PACKED = path.join(os.tmpdir(), "medusa-payment-pgs-packed")
const LOCK = path.join(PACKED, "packing.lock")
/** A lock not touched for this long is stale whatever its pid says (the pid may be another process's now). */
const LOCK_STALE_MS = 5 * 60_000
/** Packs nobody used for this long are removed. */
const PRUNE_AFTER_MS = 6 * 3600_000
/** README's folder for the tarballs, replaced by the pack's own (and by the newcomer suite in README's install lines). */
export const README_PACKAGES = "~/pgs-packages"
/** What neither package is made from: the suites, the benchmarks, unit tests. */
const NOT_PACKED = /^(integration-tests|bench)\/|(^|\/)__tests__\//

/** A hash of every file the packages may be made from, as the work tree has them now. */
export function treeKey(): string {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8", maxBuffer: 64 << 20 })
  const files = [...new Set(listed.split("\0"))].filter((f) => f && !NOT_PACKED.test(f) && fs.statSync(path.join(ROOT, f), { throwIfNoEntry: false })?.isFile()).sort()
  const blobs = execFileSync("git", ["hash-object", "--stdin-paths"], { cwd: ROOT, input: files.join("\n"), encoding: "utf8", maxBuffer: 64 << 20 }).trim().split("\n")
  return createHash("sha1").update(files.map((f, i) => `${blobs[i]} ${f}`).join("\n")).digest("hex").slice(0, 16)
}

/** The folder holding both tarballs of the tree as it is now, packed now or by an earlier run. */
export async function packedTree(): Promise<string> {
  const key = treeKey()
  const dir = path.join(PACKED, key)
  fs.mkdirSync(PACKED, { recursive: true })
  while (!fs.existsSync(dir)) {
    if (takeLock()) {
      // Touched while packing: a lock left untouched is stale (LOCK_STALE_MS).
      const touch = setInterval(() => fs.promises.utimes(LOCK, new Date(), new Date()).catch(() => undefined), 30_000)
      try {
        if (!fs.existsSync(dir)) {
          const uncached = await packInto(dir, key)
          if (uncached) return uncached
        }
      } finally {
        clearInterval(touch)
        releaseLock()
      }
    } else {
      await waitFor(() => fs.existsSync(dir) || !lockHeld(), { timeoutMs: 20 * 60_000, intervalMs: 1000, what: `the pack another process is making (${LOCK})` })
    }
  }
  const now = new Date()
  fs.utimesSync(dir, now, now) // used now: the pruning keeps it
  return dir
}

/** The plugin's tarball in a folder of packages. */
export function pluginTarball(folder: string): string {
  const name = fs.readdirSync(folder).find((f) => /^medusa-payment-pgs-\d.*\.tgz$/.test(f))
  if (!name) throw new Error(`no medusa-payment-pgs-<version>.tgz in ${folder}`)
  return path.join(folder, name)
}

/**
 * Packs the tree into `dir` when the tree still has `key` afterwards; an edit made while packing leaves the pack
 * under a folder of this run's own (returned), never under a key whose content it may not be.
 */
async function packInto(dir: string, key: string): Promise<string | undefined> {
  const partial = `${dir}.partial-${process.pid}`
  const uncached = path.join(PACKED, `uncached-${process.pid}-${Date.now()}`)
  fs.rmSync(partial, { recursive: true, force: true })
  try {
    for (const command of commands(readmeBlock("pack"))) await run(command.split(README_PACKAGES).join(partial), ROOT, npmEnv())
    const unchanged = treeKey() === key
    fs.renameSync(partial, unchanged ? dir : uncached)
    prune(unchanged ? dir : uncached)
    return unchanged ? undefined : uncached
  } finally {
    fs.rmSync(partial, { recursive: true, force: true })
  }
}

/**
 * Takes the machine's pack lock. A stale lock (lockHeld) is taken over by renaming it to a name of this process's
 * own, which only one process can do to that file; a fresh lock renamed by mistake (made between the look and the
 * rename) is linked back, never removed.
 */
function takeLock(): boolean {
  try {
    fs.writeFileSync(LOCK, String(process.pid), { flag: "wx" })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
  }
  const stale = fs.statSync(LOCK, { throwIfNoEntry: false })
  if (stale && lockHeld()) return false
  const moved = `${LOCK}.stale-${process.pid}-${Date.now()}`
  try {
    fs.renameSync(LOCK, moved)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error
    return takeLock() // gone meanwhile: released or taken over by another process
  }
  const took = fs.statSync(moved)
  if (stale && (took.ino !== stale.ino || took.mtimeMs !== stale.mtimeMs)) {
    try {
      fs.linkSync(moved, LOCK) // someone's fresh lock: theirs again
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
    }
    fs.rmSync(moved, { force: true })
    return false
  }
  fs.rmSync(moved, { force: true })
  return takeLock()
}

/**
 * Whether the lock is held: touched within LOCK_STALE_MS (its holder touches it while packing) and its process
 * alive (a lock just made, its pid not yet written, counts as held for a minute).
 */
function lockHeld(): boolean {
  try {
    const pid = Number(fs.readFileSync(LOCK, "utf8"))
    const age = Date.now() - fs.statSync(LOCK).mtimeMs
    if (!pid) return age < 60_000
    if (age > LOCK_STALE_MS) return false
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM" // alive, another user's
  }
}

function releaseLock() {
  const holder = fs.existsSync(LOCK) ? fs.readFileSync(LOCK, "utf8") : ""
  if (holder === String(process.pid)) fs.rmSync(LOCK, { force: true })
}

/** Removes the packs other than `keep` nobody used for PRUNE_AFTER_MS (a suite using one touched it when it began). */
function prune(keep: string) {
  for (const name of fs.readdirSync(PACKED)) {
    const p = path.join(PACKED, name)
    const stat = fs.statSync(p, { throwIfNoEntry: false })
    if (p === keep || name.includes(".partial-") || !stat?.isDirectory() || Date.now() - stat.mtimeMs < PRUNE_AFTER_MS) continue
    fs.rmSync(p, { recursive: true, force: true })
  }
}
