/**
 * The sandbox is a second, independent reading of the spec (design/architecture.md: "sandbox/ imports nothing
 * from src/"), and the plugin's code does not lean on the sandbox either: both are checked on every import.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join, relative, resolve } from "node:path"

const ROOT = resolve(__dirname, "../..")

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(path)
    return /\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) ? [path] : []
  })
}

/** Every module specifier of a file: import/export ... from, import(), require(). */
function specifiers(text: string): string[] {
  const found: string[] = []
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["'`]([^"'`]+)["'`]/gm)) found.push(m[1])
  return found
}

/** Imports of files under `from` that resolve into the folder `into`. */
function crossings(from: string, into: string): string[] {
  const target = join(ROOT, into)
  return sourceFiles(join(ROOT, from)).flatMap((file) =>
    specifiers(readFileSync(file, "utf8"))
      .filter((s) => s.startsWith("."))
      .filter((s) => {
        const resolved = resolve(file, "..", s)
        return resolved === target || resolved.startsWith(target + "/")
      })
      .map((s) => `${relative(ROOT, file)}: ${s}`),
  )
}

describe("import boundaries", () => {
  it("sandbox/ imports nothing from src/", () => {
    expect(crossings("sandbox", "src")).toEqual([])
  })

  it("src/ imports nothing from sandbox/ (the package's ./sandbox export points at the built sandbox, not through src/)", () => {
    expect(crossings("src", "sandbox")).toEqual([])
  })

  it("sees an import when there is one (the scan itself works)", () => {
    expect(specifiers(`import { a } from "../../src/x"\nconst b = require('../src/y')\nexport * from "./z"`)).toEqual(["../../src/x", "../src/y", "./z"])
  })
})
