/**
 * Browser files (sandbox/public/*) are plain JS read at runtime from the package root: compiled code runs from
 * .medusa/server/sandbox or dist/sandbox, so __dirname alone does not say where the sources are.
 */
import { existsSync, readFileSync } from "node:fs"
import path from "node:path"

let root: string | null = null

/** The nearest directory above this file that holds package.json (the package root). */
export function packageRoot(): string {
  if (root) return root
  let dir = __dirname
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir)
    if (parent === dir) throw new Error(`no package.json above ${__dirname}`)
    dir = parent
  }
  return (root = dir)
}

/** Read on every request (not cached) so edits show up without a restart; the files are small. */
export function readPublicFile(name: string): string {
  return readFileSync(path.join(packageRoot(), "sandbox", "public", name), "utf8")
}
