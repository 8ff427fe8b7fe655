// Builds dist/index.js (core, plus one chunk per non-English locale) and dist/react.js (bindings; imports the core and react, bundles neither),
// and the payment-collection entry dist/collection.js with its bindings dist/react-collection.js: ESM, minified.
// `node build.cjs [outdir]` (also npm pack's prepack) adds the type declarations in dist/types; CommonJS so jest-run
// suites and the bench can use it without an ESM loader.
const { build } = require("esbuild")
const path = require("node:path")
const { rmSync } = require("node:fs")
const { execFileSync } = require("node:child_process")

/** The bindings import "../core" (or "../collection"): in the published package that is the bundle next to them. */
const coreIsExternal = {
  name: "core-external",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/core$/ }, () => ({ path: "./index.js", external: true }))
    b.onResolve({ filter: /^\.\.\/collection$/ }, () => ({ path: "./collection.js", external: true }))
  },
}

async function buildWidget(outdir = path.join(__dirname, "dist")) {
  rmSync(outdir, { recursive: true, force: true }) // no stale locale chunks
  const common = { bundle: true, format: "esm", minify: true, target: "es2020", platform: "browser", logLevel: "silent", legalComments: "none" }
  // Splitting: each locale pack but English becomes its own chunk, fetched only by shoppers who use it.
  await build({ ...common, entryPoints: { index: path.join(__dirname, "src/core/index.ts") }, outdir, splitting: true, chunkNames: "locale-[hash]" })
  await build({ ...common, entryPoints: [path.join(__dirname, "src/react/index.ts")], outfile: path.join(outdir, "react.js"), external: ["react"], plugins: [coreIsExternal] })
  // The payment-collection entry (money after checkout) is its own bundle: the cart checkout's first paint never
  // loads it. It bundles the core modules it uses; its locale chunks are the same files as the core's.
  await build({ ...common, entryPoints: { collection: path.join(__dirname, "src/collection/index.ts") }, outdir, splitting: true, chunkNames: "locale-[hash]" })
  await build({ ...common, entryPoints: [path.join(__dirname, "src/react/collection.ts")], outfile: path.join(outdir, "react-collection.js"), external: ["react"], plugins: [coreIsExternal] })
  return { core: path.join(outdir, "index.js"), react: path.join(outdir, "react.js"), collection: path.join(outdir, "collection.js") }
}

/** Declarations for every export (core and React entries) from the same sources, with TypeScript's own compiler. */
function emitTypes(outdir) {
  const tsc = require.resolve("typescript/bin/tsc")
  execFileSync(process.execPath, [tsc, "-p", path.join(__dirname, "tsconfig.json"), "--emitDeclarationOnly", "--outDir", path.join(outdir, "types")], { stdio: "inherit" })
}

module.exports = { buildWidget, emitTypes }

if (require.main === module) {
  const outdir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(__dirname, "dist")
  buildWidget(outdir).then(() => {
    emitTypes(outdir)
    console.log(`built ${outdir}`)
  })
}
