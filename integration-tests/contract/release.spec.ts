/**
 * A store pins a release: both packages carry one version, the plugin reports it, and CHANGELOG.md says what it
 * brings and which commit rebuilds the release before it (scripts/release-check.js, `npm run release:check`).
 */
import fs from "node:fs"
import os from "node:os"
import path from "node:path"
import { execFileSync } from "node:child_process"

const ROOT = path.resolve(__dirname, "../..")
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { releaseProblems } = require("../../scripts/release-check.js") as { releaseProblems: (root: string) => string[] }

const made: string[] = []
afterAll(() => made.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })))

/** A copy of the release files, changed by `edit`, in a folder of its own. */
function releaseFilesWith(edit: (file: string, text: string) => string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pgs-release-"))
  made.push(dir)
  for (const file of ["package.json", "storefront-widget/package.json", "src/gateway/version.ts", "CHANGELOG.md"]) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    fs.writeFileSync(path.join(dir, file), edit(file, fs.readFileSync(path.join(ROOT, file), "utf8")))
  }
  const shapes = path.join(ROOT, "release/stored-shapes")
  if (fs.existsSync(shapes)) fs.cpSync(shapes, path.join(dir, "release/stored-shapes"), { recursive: true })
  return dir
}

/** The changelog with an entry put before its newest one (at a release commit there is no Unreleased entry). */
const withNewestEntry = (text: string, entry: string) => text.replace(/^## \[/m, `${entry}\n\n## [`)
/** The changelog as it is on the way to a release: with an Unreleased entry. */
const onTheWay = (text: string) => (/^## \[Unreleased\]/m.test(text) ? text : withNewestEntry(text, "## [Unreleased]\n\nPrevious release: 0.2.0, commit `abc1234`."))

const bumped = (to: string) => (file: string, text: string) =>
  file.endsWith("version.ts") ? text.replace(/PACKAGE_VERSION = "[^"]+"/, `PACKAGE_VERSION = "${to}"`) : file.endsWith("package.json") ? text.replace(/"version": "[^"]+"/, `"version": "${to}"`) : text

describe("releases", () => {
  it("finds the checkout's versions in agreement and its version in CHANGELOG.md", () => {
    expect(releaseProblems(ROOT)).toEqual([])
    expect(execFileSync(process.execPath, [path.join(ROOT, "scripts/release-check.js")], { encoding: "utf8" })).toMatch(/versions agree/)
  })

  it("fails when the storefront package's version differs from the plugin's", () => {
    const dir = releaseFilesWith((file, text) => (file === "storefront-widget/package.json" ? text.replace(/"version": "[^"]+"/, `"version": "9.9.9"`) : text))
    expect(releaseProblems(dir)).toEqual([expect.stringMatching(/storefront-widget\/package.json has version 9.9.9.*move together/)])
  })

  it("fails when the version changed without a CHANGELOG entry", () => {
    expect(releaseProblems(releaseFilesWith(bumped("7.0.0")))).toContain('CHANGELOG.md has no "## [7.0.0]" entry for the version in package.json (7.0.0)')
  })

  it("passes a bump whose entry names the release before it and keeps its stored shape, and fails one that names no commit", () => {
    const withEntry = (commit: string) => (file: string, text: string) =>
      file === "CHANGELOG.md" ? withNewestEntry(text, `## [7.0.0] - 2026-12-01\n\nPrevious release: ${commit}.`) : bumped("7.0.0")(file, text)
    const released = releaseFilesWith(withEntry("0.1.0, commit `227978f`"))
    expect(releaseProblems(released)).toEqual(["release/stored-shapes/7.0.0.json is missing: run npm run release:stored-shape when cutting 7.0.0"])
    fs.mkdirSync(path.join(released, "release/stored-shapes"), { recursive: true })
    fs.writeFileSync(path.join(released, "release/stored-shapes/7.0.0.json"), "{}")
    expect(releaseProblems(released)).toEqual([])
    expect(releaseProblems(releaseFilesWith(withEntry("0.1.0")))).toContain("CHANGELOG.md's entry 7.0.0 names no commit (`abc1234`) of the release before it")
  })

  it("tells a prerelease (a build on the way to the next release) under Unreleased, and fails it without one", () => {
    const prerelease = (file: string, text: string) => (file === "CHANGELOG.md" ? onTheWay(text) : bumped("7.0.0-dev.3")(file, text))
    expect(releaseProblems(releaseFilesWith(prerelease))).toEqual([])
    const withoutUnreleased = (file: string, text: string) => (file === "CHANGELOG.md" ? onTheWay(text).replace("## [Unreleased]", "## Work in progress") : bumped("7.0.0-dev.3")(file, text))
    expect(releaseProblems(releaseFilesWith(withoutUnreleased))).toEqual(['CHANGELOG.md has no "## [Unreleased]" entry for the version in package.json (7.0.0-dev.3)'])
  })

  it("answers --version with the package's version", () => {
    const version = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version
    expect(execFileSync(process.execPath, [path.join(ROOT, "bin/medusa-payment-pgs.js"), "--version"], { encoding: "utf8" }).trim()).toBe(`medusa-payment-pgs ${version}`)
  })
})
