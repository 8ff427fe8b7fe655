/**
 * `--write-env FILE`: write the PGS_* variables a store needs into its .env, in place. Lines the sandbox does not
 * own are kept as they are; an owned variable is replaced where it stands (also a multi-line quoted PEM), or
 * added at the end. Values with line breaks (PEMs) are written on one line in double quotes with `\n`, which
 * dotenv (Medusa's loadEnv) turns back into line breaks.
 */
import fs from "node:fs"
import path from "node:path"

type Entry = { key: string; start: number; end: number; value: string }

const ASSIGNMENT = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s?(.*)$/

/** The assignments of a dotenv file with their line ranges (a quoted value may span lines). */
function entriesOf(lines: string[]): Entry[] {
  const entries: Entry[] = []
  for (let i = 0; i < lines.length; i++) {
    const m = ASSIGNMENT.exec(lines[i])
    if (!m) continue
    const start = i
    let raw = m[2].trim()
    const quote = raw[0]
    if ((quote === '"' || quote === "'" || quote === "`") && !raw.slice(1).includes(quote)) {
      while (i + 1 < lines.length) {
        i++
        raw += "\n" + lines[i]
        if (lines[i].includes(quote)) break
      }
    }
    entries.push({ key: m[1], start, end: i + 1, value: unquote(raw) })
  }
  return entries
}

function unquote(raw: string): string {
  const quote = raw[0]
  if (quote === '"' || quote === "'" || quote === "`") {
    const close = raw.lastIndexOf(quote)
    const inner = close > 0 ? raw.slice(1, close) : raw.slice(1)
    return quote === '"' ? inner.replace(/\\n/g, "\n") : inner
  }
  return raw.replace(/\s+#.*$/, "")
}

/** One line: plain when safe, else double-quoted with line breaks as `\n`. */
export function envLine(key: string, value: string): string {
  if (/^[A-Za-z0-9_.:/@+,=-]*$/.test(value)) return `${key}=${value}`
  return `${key}="${value.replace(/\r?\n/g, "\\n")}"`
}

export function readEnvValue(file: string, key: string): string | undefined {
  if (!fs.existsSync(file)) return undefined
  const entries = entriesOf(fs.readFileSync(file, "utf8").split("\n"))
  return entries.filter((e) => e.key === key).pop()?.value
}

/**
 * Sets `values` (replacing earlier lines for the same keys) and `defaults` where the key is not set yet.
 * Returns the keys whose value changed; the file is not written when none did.
 */
export function updateEnvFile(file: string, values: Record<string, string>, defaults: Record<string, string> = {}): string[] {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : ""
  const lines = text === "" ? [] : text.replace(/\n$/, "").split("\n")
  const entries = entriesOf(lines)
  const current = new Map(entries.map((e) => [e.key, e.value]))
  const wanted: Record<string, string> = { ...values }
  for (const [key, value] of Object.entries(defaults)) if (!current.get(key)) wanted[key] = value
  const changed = Object.keys(wanted).filter((key) => current.get(key) !== wanted[key])
  if (!changed.length) return []

  const out: string[] = []
  const written = new Set<string>()
  let line = 0
  for (const entry of entries) {
    out.push(...lines.slice(line, entry.start))
    line = entry.end
    if (!(entry.key in wanted)) out.push(...lines.slice(entry.start, entry.end))
    else if (!written.has(entry.key)) {
      out.push(envLine(entry.key, wanted[entry.key]))
      written.add(entry.key)
    }
  }
  out.push(...lines.slice(line))
  const added = Object.keys(wanted).filter((key) => !written.has(key))
  if (added.length) {
    if (out.length && out[out.length - 1].trim() !== "") out.push("")
    out.push("# PGS sandbox (npx medusa-payment-pgs sandbox --write-env)")
    for (const key of added) out.push(envLine(key, wanted[key]))
  }
  // Its folder may not be there yet (the keys kept elsewhere, --keys-dir): made, as the keys' folder is.
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, out.join("\n") + "\n", { mode: fs.existsSync(file) ? fs.statSync(file).mode : 0o600 })
  fs.renameSync(tmp, file)
  return changed
}
