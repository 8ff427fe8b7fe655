// Builds dist/index.js (core, plus one chunk per non-English locale) and dist/react.js (bindings; imports the core and react, bundles neither),
// and the payment-collection entry dist/collection.js with its bindings dist/react-collection.js: ESM, minified.
// `node build.cjs [outdir]` (also npm pack's prepack) adds the type declarations in dist/types; CommonJS so jest-run
// suites and the bench can use it without an ESM loader.
const { build } = require("esbuild")
const path = require("node:path")
const { readdirSync, readFileSync, rmSync } = require("node:fs")
const { execFileSync } = require("node:child_process")

/**
 * What the core loads with import() only when it is used, each a bundle of its own (dist/{name}.js) carrying its own
 * copy of the few helpers it needs: so no chunk is shared with the core, and the first paint stays one file.
 * The return page runs on a page of its own (after the redirect; `mountReturn` loads it), 3-D Secure's steps and
 * dialog when a payment needs them, the method panels (wallet, code, voucher, saved card) when the shopper opens
 * such a method, the card's pay check once the card fields are up. The return page's locale chunks are the core's (same content, same file).
 */
const OWN_BUNDLES = { "return-page": "return", "three-ds": "three-ds", panels: "panels", "pay-check": "pay-check" }
// The sources name modules with ".js" (so the emitted declarations resolve under moduleResolution node16/nodenext);
// the filters take the name without it too, so such an import still makes no shared chunk.
const ownBundlesAreExternal = {
  name: "own-bundles-external",
  setup(b) {
    b.onResolve({ filter: /^\.\/(return-page|three-ds|panels|pay-check)(\.js)?$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: `./${OWN_BUNDLES[args.path.replace(/^\.\/|\.js$/g, "")]}.js`, external: true } : undefined,
    )
  },
}

/** The bindings import "../core/index.js" (or "../collection/index.js"): in the published package that is the bundle next to them. */
const coreIsExternal = {
  name: "core-external",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/core(\/index\.js)?$/ }, () => ({ path: "./index.js", external: true }))
    b.onResolve({ filter: /^\.\.\/collection(\/index\.js)?$/ }, () => ({ path: "./collection.js", external: true }))
  },
}

async function buildWidget(outdir = path.join(__dirname, "dist")) {
  rmSync(outdir, { recursive: true, force: true }) // no stale locale chunks
  const common = { bundle: true, format: "esm", minify: true, target: "es2020", platform: "browser", logLevel: "silent", legalComments: "none" }
  // Splitting: each locale pack a dynamic import loads becomes a chunk of its own, fetched only when used.
  const split = { ...common, outdir, splitting: true, chunkNames: "[name]-[hash]", plugins: [ownBundlesAreExternal] }
  await build({ ...split, entryPoints: { index: path.join(__dirname, "src/core/index.ts") } })
  for (const [file, name] of Object.entries(OWN_BUNDLES)) await build({ ...split, entryPoints: { [name]: path.join(__dirname, "src/core", `${file}.ts`) } })
  await build({ ...common, entryPoints: [path.join(__dirname, "src/react/index.ts")], outfile: path.join(outdir, "react.js"), external: ["react"], plugins: [coreIsExternal] })
  // The payment-collection entry (money after checkout) is its own bundle: the cart checkout's first paint never
  // loads it. It bundles the core modules it uses; its locale chunks are the same files as the core's.
  await build({ ...split, entryPoints: { collection: path.join(__dirname, "src/collection/index.ts") } })
  await build({ ...common, entryPoints: [path.join(__dirname, "src/react/collection.ts")], outfile: path.join(outdir, "react-collection.js"), external: ["react"], plugins: [coreIsExternal] })
  return { core: path.join(outdir, "index.js"), react: path.join(outdir, "react.js"), collection: path.join(outdir, "collection.js") }
}

/**
 * Declarations for every export (core and React entries) from the same sources, with TypeScript's own compiler. Each
 * relative import in them must name its file ("./checkout.js", "../core/index.js"): a store whose TypeScript resolves
 * as Node does ("nodenext", "node16") finds nothing at "./checkout", and every export is any there. The sources' own
 * tsconfig ("bundler") takes either, so the build checks.
 */
function emitTypes(outdir) {
  const tsc = require.resolve("typescript/bin/tsc")
  const types = path.join(outdir, "types")
  execFileSync(process.execPath, [tsc, "-p", path.join(__dirname, "tsconfig.json"), "--emitDeclarationOnly", "--outDir", types], { stdio: "inherit" })
  const unnamed = readdirSync(types, { recursive: true })
    .filter((file) => file.endsWith(".d.ts"))
    .flatMap((file) =>
      [...readFileSync(path.join(types, file), "utf8").matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)["'](\.{1,2}\/[^"']*)["']/g)]
        .filter((m) => !m[1].endsWith(".js"))
        .map((m) => `${file}: ${m[1]}`),
    )
  if (unnamed.length) throw new Error(`relative imports without ".js" in the declarations (write them so in src/):\n${unnamed.join("\n")}`)
}

module.exports = { buildWidget, emitTypes }

if (require.main === module) {
  const outdir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(__dirname, "dist")
  buildWidget(outdir).then(() => {
    emitTypes(outdir)
    console.log(`built ${outdir}`)
  })
}
