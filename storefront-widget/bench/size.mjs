// npm run bench:widget — gzipped size of the core and of the React bindings (the gateway's own script excluded).
// Goal (issue 15: the payment element's budget, icons included): core ≤ 10 kB, React ≤ 2 kB. Last line: one JSON object.
import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { gzipSync } from "node:zlib"
import { createRequire } from "node:module"

const { buildWidget } = createRequire(import.meta.url)("../build.cjs")

const out = await buildWidget()
const size = (file) => {
  const raw = readFileSync(file)
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length }
}
const core = size(out.core)
const react = size(out.react)
// The payment-collection entry (money after checkout) is its own bundle; reported, not part of the core's budget.
const collection = size(out.collection)
const dist = path.dirname(out.core)
const packs = readdirSync(dist).filter((f) => f.startsWith("locale-")).map((f) => ({ f, ...size(path.join(dist, f)) }))
const kb = (n) => `${(n / 1024).toFixed(2)} kB`
console.log(`core  dist/index.js  ${kb(core.raw)} minified, ${kb(core.gzip)} gzipped (goal ≤ 10 kB) ${core.gzip <= 10240 ? "ok" : "OVER"}; English built in`)
for (const p of packs) console.log(`      dist/${p.f}  ${kb(p.gzip)} gzipped (one other locale, loaded only when used)`)
console.log(`collection dist/collection.js  ${kb(collection.gzip)} gzipped (its own page; the core above never loads it)`)
console.log(`react dist/react.js  ${kb(react.raw)} minified, ${kb(react.gzip)} gzipped (goal ≤ 2 kB) ${react.gzip <= 2048 ? "ok" : "OVER"}`)
// Every locale pack has one text per key (a missing "|" would shift every later text).
const texts = (file) => readFileSync(new URL(`../src/core/${file}`, import.meta.url), "utf8")
const keys = texts("i18n.ts").match(/const KEYS = \[([\s\S]*?)\] as const/)[1].match(/"\w+"/g).length
for (const l of ["locales/bs-BA.ts", "locales/ro-RO.ts", "locales/sv-SE.ts", "i18n.ts"]) {
  const line = texts(l).match(/(?:default|EN =\s*)\s*"([^"]*)"/)[1]
  if (line.split("|").length !== keys) throw new Error(`${l}: ${line.split("|").length} texts for ${keys} keys`)
}
console.log(JSON.stringify({ bench: "widget", core_gzip_bytes: core.gzip, react_gzip_bytes: react.gzip, collection_gzip_bytes: collection.gzip }))
