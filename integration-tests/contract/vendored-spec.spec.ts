/**
 * The vendored spec (./spec) must be the contract itself: byte for byte the documents in ../shared/spec beside
 * the checkout. CI runs on a clean clone where that folder does not exist; then this is skipped, saying so.
 */
import { existsSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { SPEC_DIR, SPEC_FILES } from "./markdown"

const SHARED = resolve(__dirname, "../../../shared/spec")
const present = existsSync(SHARED)
if (!present) console.warn(`[contract] ${SHARED} not found (a clean clone?): the vendored spec copies are not compared with it.`)

describe(present ? "the vendored spec copies" : `the vendored spec copies (skipped: ${SHARED} not found)`, () => {
  it.each(SPEC_FILES)(present ? "%s equals ../shared/spec" : "%s (skipped: no ../shared/spec here)", (name) => {
    if (!present) return
    expect(readFileSync(join(SPEC_DIR, name), "utf8")).toBe(readFileSync(join(SHARED, name), "utf8"))
  })
})
