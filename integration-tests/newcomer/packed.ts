/**
 * This tree's two packages, packed by README's pack block (`npm pack`, whose prepack runs `medusa plugin:build`),
 * once per content of the tree on this machine, for every suite that installs them: the newcomer suite into fresh
 * projects, the upgrade suite into a store that ran the previous release. Kept in $TMPDIR/medusa-payment-pgs-packed/
 * <key>, the key a hash of every file git would take (tracked and untracked, not ignored) outside the test folders,
 * as they are in the work tree: an edit to anything the packages are made from packs again. One pack at a time on
 * this machine (a lock file): `npm pack` builds into this checkout's .medusa/, and a worker that asks while another
 * packs waits for that pack instead of building the same tree a second time. Made beside its place, renamed whole.
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
  const dir = path.join(PACKED, treeKey())
  fs.mkdirSync(PACKED, { recursive: true })
  while (!fs.existsSync(dir)) {
    if (takeLock()) {
      try {
        if (!fs.existsSync(dir)) await packInto(dir)
      } finally {
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

async function packInto(dir: string) {
  const partial = `${dir}.partial-${process.pid}`
  fs.rmSync(partial, { recursive: true, force: true })
  try {
    for (const command of commands(readmeBlock("pack"))) await run(command.split(README_PACKAGES).join(partial), ROOT, npmEnv())
    fs.renameSync(partial, dir)
  } finally {
    fs.rmSync(partial, { recursive: true, force: true })
  }
  prune(dir)
}

/** Takes the machine's pack lock; a lock whose process is gone is taken over. */
function takeLock(): boolean {
  try {
    fs.writeFileSync(LOCK, String(process.pid), { flag: "wx" })
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error
  }
  if (lockHeld()) return false
  fs.rmSync(LOCK, { force: true })
  return takeLock()
}

/** Whether the lock's process is alive (a lock just made, its pid not yet written, counts as held for a minute). */
function lockHeld(): boolean {
  try {
    const pid = Number(fs.readFileSync(LOCK, "utf8"))
    if (!pid) return Date.now() - fs.statSync(LOCK).mtimeMs < 60_000
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

/** Keeps `keep` and the two other packs used last. */
function prune(keep: string) {
  const packs = fs
    .readdirSync(PACKED)
    .map((name) => path.join(PACKED, name))
    .filter((p) => p !== keep && !p.includes(".partial-") && fs.statSync(p).isDirectory())
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs)
  for (const p of packs.slice(2)) fs.rmSync(p, { recursive: true, force: true })
}
