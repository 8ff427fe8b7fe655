// npm run bench:widget — gzipped size of the first paint (the core and what it imports statically), of each lazy
// chunk and of the React bindings (the gateway's own script excluded). Goals: first paint ≤ 10 kB with at least
// 1.5 kB of headroom for what comes next (issue 22), React ≤ 2 kB; each is said met or not, in words and in the JSON
// (`headroom_goal_met`), and the exit code is 1 when one is not. Last line: one JSON object.
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
const dist = path.dirname(out.core)
// First paint: the core and every chunk it imports statically (none: the lazy parts are bundles of their own, see
// build.cjs; a shared chunk would count here).
const staticImports = (file) => [...readFileSync(file, "utf8").matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((m) => path.join(path.dirname(file), m[1]))
const firstPaint = [out.core, ...staticImports(out.core)]
const core = firstPaint.map(size).reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip }))
const react = size(out.react)
// The payment-collection entry (money after checkout) is its own bundle for its own page: reported, not first paint.
const collection = size(out.collection)
const entries = [out.react, out.collection, path.join(dist, "react-collection.js")]
const lazy = readdirSync(dist).filter((f) => f.endsWith(".js")).map((f) => path.join(dist, f)).filter((f) => !firstPaint.includes(f) && !entries.includes(f)).map((f) => ({ f: path.relative(dist, f), ...size(f) }))
const kb = (n) => `${(n / 1024).toFixed(2)} kB`
const HEADROOM_GOAL = 1536
const headroom = 10240 - core.gzip
const headroomMet = headroom >= HEADROOM_GOAL
console.log(
  `core  dist/index.js  ${kb(core.raw)} minified, ${kb(core.gzip)} gzipped: the first paint (${firstPaint.length} file${firstPaint.length > 1 ? "s" : ""}), ` +
    `${core.gzip <= 10240 ? "within" : "OVER"} 10 kB; headroom ${headroom} B: ${headroomMet ? "goal of" : "SHORT of the goal of"} ${HEADROOM_GOAL} B ${headroomMet ? "met" : "(not met)"}; English's first-paint texts built in`,
)
const WHY = {
  "return.js": "the return page's own bundle, loaded by mountReturn",
  "three-ds.js": "3-D Secure's steps and dialog, loaded when a payment needs them",
  "panels.js": "the panels of the methods other than the card, loaded when one is opened or pointed at",
  "pay-check.js": "the card's pay check (the cart read before a card is paid, ahead of Pay), loaded once the card fields are up",
}
const why = (f) => WHY[f] ?? (f.startsWith("en-US") ? "English's other texts (messages, steps), loaded at mount, after first paint" : "a locale, loaded only when used")
for (const p of lazy) console.log(`      dist/${p.f}  ${kb(p.gzip)} gzipped (${why(p.f)})`)
console.log(`collection dist/collection.js  ${kb(collection.gzip)} gzipped (its own page: the payment-collection entry; the core above never loads it)`)
console.log(`react dist/react.js  ${kb(react.raw)} minified, ${kb(react.gzip)} gzipped (goal ≤ 2 kB) ${react.gzip <= 2048 ? "ok" : "OVER"}`)
// Every locale pack has one text per key (a missing "|" would shift every later text).
const texts = (file) => readFileSync(new URL(`../src/core/${file}`, import.meta.url), "utf8")
const keys = texts("i18n.ts").match(/const KEYS = \[([\s\S]*?)\] as const/)[1].match(/"\w+"/g).length
const pack = (l) => texts(l).match(/(?:default|EN =\s*)\s*"([^"]*)"/)[1].split("|")
for (const l of ["locales/en-US.ts", "locales/bs-BA.ts", "locales/ro-RO.ts", "locales/sv-SE.ts", "i18n.ts"]) {
  if (pack(l).length !== keys) throw new Error(`${l}: ${pack(l).length} texts for ${keys} keys`)
}
// English's built-in first-paint texts are its pack's own (the others are empty until the pack loads).
const builtIn = pack("i18n.ts")
const full = pack("locales/en-US.ts")
builtIn.forEach((x, i) => {
  if (x && x !== full[i]) throw new Error(`i18n.ts: built-in text ${i} "${x}" is not locales/en-US.ts's "${full[i]}"`)
})
console.log(JSON.stringify({ bench: "widget", core_gzip_bytes: core.gzip, first_paint_files: firstPaint.map((f) => path.relative(dist, f)), core_headroom_bytes: headroom, headroom_goal_bytes: HEADROOM_GOAL, headroom_goal_met: headroomMet, react_gzip_bytes: react.gzip, collection_gzip_bytes: collection.gzip, chunks: Object.fromEntries(lazy.map((p) => [p.f, p.gzip])) }))
if (core.gzip > 10240 || !headroomMet || react.gzip > 2048) process.exitCode = 1
