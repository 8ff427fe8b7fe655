#!/usr/bin/env node
/**
 * `npm run release:check` (also run by npm test, integration-tests/contract/release.spec.ts): the two packages
 * share one version, the plugin reports that version (src/gateway/version.ts), and CHANGELOG.md has an entry for it
 * that names the commit of the release before it (or, for the first release, the build it is). A prerelease
 * (0.2.0-dev.0: a build on the way to 0.2.0) is told under "## [Unreleased]". A release keeps the shape of the
 * session data its reader accepts in release/stored-shapes/ (rolling upgrades, docs/production.md).
 */
const fs = require("node:fs")
const path = require("node:path")

/** What is wrong with the release files under `root`, in words; empty when nothing is. */
function releaseProblems(root) {
  const read = (file) => fs.readFileSync(path.join(root, file), "utf8")
  const plugin = JSON.parse(read("package.json")).version
  const widget = JSON.parse(read("storefront-widget/package.json")).version
  const reported = /PACKAGE_VERSION = "([^"]+)"/.exec(read("src/gateway/version.ts"))?.[1]
  const problems = []
  if (widget !== plugin) problems.push(`storefront-widget/package.json has version ${widget}, package.json ${plugin}: the two packages move together`)
  if (reported !== plugin) problems.push(`src/gateway/version.ts reports ${reported}, package.json has ${plugin}`)
  const changelog = read("CHANGELOG.md")
  const entries = [...changelog.matchAll(/^## \[([^\]]+)\]/gm)].map((m) => ({ version: m[1], at: m.index }))
  const heading = /^\d+\.\d+\.\d+-/.test(plugin) ? "Unreleased" : plugin
  if (!entries.some((e) => e.version === heading)) problems.push(`CHANGELOG.md has no "## [${heading}]" entry for the version in package.json (${plugin})`)
  for (const [i, e] of entries.entries()) {
    const text = changelog.slice(e.at, entries[i + 1]?.at ?? changelog.length)
    if (!/commit `[0-9a-f]{7,40}`/.test(text)) problems.push(`CHANGELOG.md's entry ${e.version} names no commit (\`abc1234\`) of the release before it`)
  }
  // A release keeps its reader's stored shape, so the release after it can be checked against it (scripts/stored-shapes.ts).
  if (heading !== "Unreleased" && !fs.existsSync(path.join(root, "release/stored-shapes", `${plugin}.json`)))
    problems.push(`release/stored-shapes/${plugin}.json is missing: run npm run release:stored-shape when cutting ${plugin}`)
  return problems
}

module.exports = { releaseProblems }

if (require.main === module) {
  const problems = releaseProblems(path.resolve(__dirname, ".."))
  for (const problem of problems) console.error(`release:check: ${problem}`)
  if (problems.length) process.exit(1)
  console.log("release:check: versions agree and CHANGELOG.md has the entry")
}
