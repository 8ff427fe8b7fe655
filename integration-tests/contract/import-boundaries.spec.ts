/**
 * The sandbox is a second, independent reading of the spec (design/architecture.md: "sandbox/ imports nothing
 * from src/"), and the plugin's code does not lean on the sandbox either: both are checked on every import. The
 * house plan's other arrows too: gateway/ free of Medusa, modules/ and providers/ below api/ and workflows/, the
 * admin extension and the widget free of server code, and no import circle in src/, sandbox/ or the widget.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, resolve } from "node:path"

const ROOT = resolve(__dirname, "../..")

function sourceFiles(dir: string): string[] {
  if (statSync(dir).isFile()) return [dir]
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

/**
 * The relative specifiers a file imports from, `import type` and `export ... from` included: a circle of types is a
 * circle too (each side must be read to understand the other). The import clause may span lines but holds only
 * names, braces, commas and `*`, so the scan never runs on into code.
 */
function relativeImports(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\s+(?:[\w$*{},\s]*?\bfrom\s*)?["'](\.[^"']+)["']/gm)].map((m) => m[1]!)
}

const isFile = (path: string) => existsSync(path) && statSync(path).isFile()

/** Imports between the .ts/.tsx files of `dir`, each resolved to the file it names. */
function importGraph(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>()
  for (const file of sourceFiles(dir).filter((f) => /\.tsx?$/.test(f) && !f.endsWith(".d.ts"))) {
    const deps: string[] = []
    for (const specifier of relativeImports(readFileSync(file, "utf8"))) {
      const base = resolve(file, "..", specifier).replace(/\.js$/, "")
      const target = [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), join(base, "index.tsx")].find(isFile)
      if (target) deps.push(relative(ROOT, target))
    }
    graph.set(relative(ROOT, file), deps)
  }
  return graph
}

/** Each circle once, as "a -> b -> a", found by depth-first search. */
function cyclesOf(graph: Map<string, string[]>): string[] {
  const found = new Set<string>()
  const state = new Map<string, "open" | "done">()
  const stack: string[] = []
  const visit = (node: string) => {
    state.set(node, "open")
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") found.add([...stack.slice(stack.indexOf(next)), next].join(" -> "))
      else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, "done")
  }
  for (const node of graph.keys()) if (!state.has(node)) visit(node)
  return [...found]
}

const importCycles = (dir: string) => cyclesOf(importGraph(join(ROOT, dir)))

describe("import boundaries", () => {
  it("sandbox/ imports nothing from src/", () => {
    expect(crossings("sandbox", "src")).toEqual([])
  })

  it("src/ imports nothing from sandbox/ (the package's ./sandbox export points at the built sandbox, not through src/)", () => {
    expect(crossings("src", "sandbox")).toEqual([])
  })

  it("src/gateway/ imports no Medusa package (the client knows nothing of Medusa)", () => {
    const medusa = sourceFiles(join(ROOT, "src/gateway")).flatMap((file) =>
      specifiers(readFileSync(file, "utf8"))
        .filter((s) => s.startsWith("@medusajs/"))
        .map((s) => `${relative(ROOT, file)}: ${s}`),
    )
    expect(medusa).toEqual([])
  })

  it("arrows point down: modules/, payments/ and providers/ import nothing from api/, workflows/, jobs/ or subscribers/", () => {
    const up = ["src/modules", "src/payments", "src/providers"].flatMap((from) =>
      ["src/api", "src/workflows", "src/jobs", "src/subscribers"].flatMap((into) => crossings(from, into)),
    )
    expect(up).toEqual([])
  })

  it("only Medusa reaches the provider: nothing in src/ imports providers/ from outside it", () => {
    const rooms = ["src/api", "src/workflows", "src/jobs", "src/subscribers", "src/modules", "src/payments", "src/gateway", "src/admin"]
    expect(rooms.flatMap((from) => crossings(from, "src/providers"))).toEqual([])
  })

  it("payments/ (what every room knows of a payment) sits below providers/ and above modules/: modules/ import nothing from it", () => {
    expect(crossings("src/modules", "src/payments")).toEqual([])
    expect(crossings("src/payments", "src/providers")).toEqual([])
  })

  it("each integration can be changed without opening the others: no integration imports another's files", () => {
    const dir = "src/providers/pgs/integrations"
    // Each integration's own files; the rest of the folder (interface, index, method-family, payer) is shared.
    const own: Record<string, string[]> = {
      "embedded-fields": [`${dir}/embedded-fields.ts`],
      "direct-api": [`${dir}/direct-api`],
      "hosted-page": [`${dir}/hosted-page.ts`],
      redirect: [`${dir}/redirect.ts`, `${dir}/redirect-requests.ts`],
    }
    const strip = (p: string) => p.replace(/\.ts$/, "")
    const across = Object.entries(own).flatMap(([name, paths]) =>
      paths.flatMap((from) =>
        Object.entries(own)
          .filter(([other]) => other !== name)
          .flatMap(([, others]) => others.flatMap((into) => crossings(from, strip(into)))),
      ),
    )
    expect(across).toEqual([])
    // The scan sees the folder's real imports (redirect uses redirect-requests), so an empty answer means something.
    expect(crossings(`${dir}/redirect.ts`, strip(`${dir}/redirect-requests.ts`))).not.toEqual([])
  })

  it("the admin extension and the storefront widget import no server code", () => {
    const adminOut = ["src/gateway", "src/modules", "src/payments", "src/providers", "src/api", "src/workflows", "src/jobs", "src/lib"].flatMap((into) => crossings("src/admin", into))
    expect(adminOut).toEqual([])
    expect(crossings("storefront-widget/src", "src")).toEqual([])
  })

  // `import type` counts: it is erased at build time, but two files that need each other's types are one unit.
  it.each(["src", "sandbox", "storefront-widget/src"])("no two files of %s/ import each other in a circle (type imports count)", (dir) => {
    expect(importCycles(dir)).toEqual([])
  })

  it("finds a circle when there is one (the cycle search itself works)", () => {
    const graph = new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]], ["d", ["a"]]])
    expect(cyclesOf(graph)).toEqual(["a -> b -> c -> a"])
  })

  it("sees type imports, re-exports and imports over several lines as edges, and no import in code or strings", () => {
    const text = [
      `import type { A } from "./a"`,
      `import { b,\n  type B } from "./b.js"`,
      `export * from "./c"`,
      `export { d } from './d'`,
      `import "./e"`,
      `export const f = (x: string) => x // from "./f"`,
      `const g = "import x from './g'"`,
    ].join("\n")
    expect(relativeImports(text)).toEqual(["./a", "./b.js", "./c", "./d", "./e"])
  })

  it("sees an import when there is one (the scan itself works)", () => {
    expect(specifiers(`import { a } from "../../src/x"\nconst b = require('../src/y')\nexport * from "./z"`)).toEqual(["../../src/x", "../src/y", "./z"])
  })
})
