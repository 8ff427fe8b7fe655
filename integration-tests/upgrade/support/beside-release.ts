/**
 * Which build the side-by-side suite runs beside the current tree, read from CHANGELOG.md's newest entry (the
 * Unreleased one, or the release just cut). That entry names the release before it ("Previous release: X.Y.Z,
 * commit `abc`") and says, in bold, whether it runs beside it: "**Beside X.Y.Z.**" or "**Not beside X.Y.Z.**".
 * Beside: that release's commit is rebuilt and run beside the tree. Not beside (0.1.0, the only release today):
 * no release may run beside this tree, so the suite runs it beside a rebuild of HEAD instead, which shows the two
 * builds' harness and the working tree's changes against the last commit, not a release (docs/production.md).
 */
import { execFileSync } from "node:child_process"
import { createHash } from "node:crypto"
import fs from "node:fs"
import path from "node:path"
import { buildOf, headCommit, type ReleaseBuild } from "./previous-release"

const ROOT = path.resolve(__dirname, "../../..")

/** What the changelog says; `asked`: SIDE_BY_SIDE_COMMIT named the commit instead. */
export type ChangelogChoice = { kind: "release"; version: string; commit: string } | { kind: "head"; notBeside: string }
export type BesideChoice = ChangelogChoice | { kind: "asked"; commit: string }

/** The newest entry of the changelog: from its first `## [` heading to the next one. */
function newestEntry(changelog: string): string {
  const start = changelog.indexOf("\n## [")
  if (start < 0) throw new Error("CHANGELOG.md has no entry (no `## [` heading)")
  const next = changelog.indexOf("\n## [", start + 1)
  return changelog.slice(start, next < 0 ? undefined : next)
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** What CHANGELOG.md says this tree may run beside. */
export function besideChoiceOf(changelog = fs.readFileSync(path.join(ROOT, "CHANGELOG.md"), "utf8")): ChangelogChoice {
  const entry = newestEntry(changelog)
  const previous = /Previous release: ([0-9][^,\s]*), commit `([0-9a-f]{7,40})`/.exec(entry)
  if (!previous) throw new Error('CHANGELOG.md\'s newest entry names no previous release: it should say "Previous release: X.Y.Z, commit `<sha>`"')
  const [, version, commit] = previous as unknown as [string, string, string]
  if (new RegExp(`\\*\\*Not beside ${escape(version)}\\.\\*\\*`).test(entry)) return { kind: "head", notBeside: version }
  if (new RegExp(`\\*\\*Beside ${escape(version)}\\.\\*\\*`).test(entry)) return { kind: "release", version, commit }
  throw new Error(`CHANGELOG.md's newest entry does not say whether it runs beside ${version}: write "**Beside ${version}.**" or "**Not beside ${version}.**"`)
}

export type BesideBuild = ReleaseBuild & { choice: BesideChoice; name: string }

/**
 * The build CHANGELOG.md picks, rebuilt (or taken from this machine's cache). SIDE_BY_SIDE_COMMIT=<commit> runs
 * the suite beside that commit instead: a release candidate, or 227978f (0.1.0) to watch it fail as issue 47 says.
 */
export async function besideBuild(): Promise<BesideBuild> {
  const asked = process.env.SIDE_BY_SIDE_COMMIT
  if (asked) return { ...(await buildOf(`commit ${asked.slice(0, 7)}`, asked)), choice: { kind: "asked", commit: asked }, name: `commit ${asked.slice(0, 7)}` }
  const choice = besideChoiceOf()
  if (choice.kind === "release") return { ...(await buildOf(choice.version, choice.commit)), choice, name: choice.version }
  const head = headCommit()
  return { ...(await buildOf(`HEAD ${head.slice(0, 7)}`, head, { transient: true })), choice, name: `HEAD ${head.slice(0, 7)}` }
}

/**
 * The kept fresh store (a PostgreSQL template, previous-store.ts) this build makes. A release's is named after its
 * commit; HEAD's after what makes the store (migrations, the demo's seed, medusa-config.ts, the lock file), so a new
 * commit that changes none of them copies the store made before instead of three more CLI boots.
 */
export function storeTemplateOf(build: BesideBuild): string {
  if (build.choice.kind !== "head") return `pgs_release_${build.commit.slice(0, 12)}`
  const listing = execFileSync("git", ["ls-tree", "-r", build.commit, "--", "package-lock.json", "medusa-config.ts", "scripts/demo", "src"], { cwd: ROOT, encoding: "utf8" })
  const makers = listing.split("\n").filter((l) => /\tsrc\/.*\/migrations\//.test(l) || /\t(package-lock\.json|medusa-config\.ts|scripts\/demo\/)/.test(l))
  return `pgs_store_${createHash("sha1").update(makers.join("\n")).digest("hex").slice(0, 12)}`
}
