/**
 * How the side-by-side suite picks the build to run beside the tree from CHANGELOG.md's newest entry
 * (support/beside-release.ts): the release before it when that entry says it runs beside it, HEAD otherwise.
 */
import { besideChoiceOf } from "./support/beside-release"
import { previousReleaseOf } from "./support/previous-release"

const entry = (beside: string) => `# Changelog

## [Unreleased]

Previous release: 0.2.0, commit \`abc1234\`.

### Beside 0.2.0, and rolling back
- ${beside} Stored data …

## [0.2.0] - 2026-12-20

Previous release: 0.1.0, commit \`227978f\`.
- **Not beside 0.1.0.**
`

describe("the build the side-by-side suite runs beside the tree", () => {
  it("is decided by this tree's CHANGELOG.md about the release before it", () => {
    const choice = besideChoiceOf()
    expect(choice.kind === "head" ? choice.notBeside : choice.version).toBe(previousReleaseOf().version)
  })

  it("is the release before it, by the commit the newest entry names, once that entry says it runs beside it", () => {
    expect(besideChoiceOf(entry("**Beside 0.2.0.**"))).toEqual({ kind: "release", version: "0.2.0", commit: "abc1234" })
    expect(besideChoiceOf(entry("**Not beside 0.2.0.**"))).toEqual({ kind: "head", notBeside: "0.2.0" })
  })

  it("refuses an entry that does not say, rather than guess", () => {
    expect(() => besideChoiceOf(entry("Runs next to 0.2.0."))).toThrow('write "**Beside 0.2.0.**" or "**Not beside 0.2.0.**"')
  })
})
