/**
 * The previous release, rebuilt from the commit CHANGELOG.md names for it ("Previous release: X.Y.Z, commit `abc`"
 * in the Unreleased entry): `git archive` of that commit into a folder of its own, `npm ci` there, and its own
 * development store (its medusa-config.ts loads its src/ through tsx, as its `npm run demo` did; nothing of it
 * reads a `medusa plugin:build` output, so none is made). Its CLI runs through that tree's own
 * scripts/demo/medusa.ts (cwd and node_modules its own). The installed tree is kept per commit in the temp
 * folder: a commit's files never change, and `npm ci` is most of this suite's time.
 */
import { execFileSync } from "node:child_process"
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import type * as Launcher from "../../../scripts/demo/medusa"
import { run, shellEnv } from "../../newcomer/project"

const ROOT = path.resolve(__dirname, "../../..")

export type PreviousRelease = { version: string; commit: string; dir: string; cli: typeof Launcher }

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
  const sha = resolveCommit(commit)
  const dir = path.join(os.tmpdir(), "medusa-payment-pgs-releases", sha)
  if (!fs.existsSync(path.join(dir, ".installed"))) {
    // Made beside its final place and renamed when whole, so an interrupted install is never taken for a finished one.
    const partial = `${dir}.partial-${process.pid}`
    fs.rmSync(partial, { recursive: true, force: true })
    fs.mkdirSync(partial, { recursive: true })
    try {
      execFileSync("bash", ["-c", `git archive ${sha} | tar -x -C ${JSON.stringify(partial)}`], { cwd: ROOT, stdio: ["ignore", "ignore", "pipe"] })
      await run("npm ci --prefer-offline --no-audit --no-fund", partial, shellEnv())
      fs.writeFileSync(path.join(partial, ".installed"), `${sha}\n`)
      // Another run may have finished first and be using its tree: keep theirs (rename refuses a non-empty folder).
      if (!fs.existsSync(path.join(dir, ".installed"))) {
        fs.rmSync(dir, { recursive: true, force: true })
        fs.renameSync(partial, dir)
      }
    } catch (error) {
      if (!fs.existsSync(path.join(dir, ".installed"))) throw error
    } finally {
      fs.rmSync(partial, { recursive: true, force: true })
    }
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cli = require(path.join(dir, "scripts/demo/medusa.ts")) as typeof Launcher
  return { version, commit: sha, dir, cli }
}
