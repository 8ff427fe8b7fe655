/**
 * Reading the vendored spec: its pipe tables (each with the heading above it and the line that introduces it)
 * and its prose paragraphs (for the objects the documents describe in a sentence instead of a table).
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"

export type Table = { heading: string; lead: string; header: string[]; rows: string[][] }
export type SpecDocument = { name: string; text: string; tables: Table[] }

export const SPEC_DIR = join(__dirname, "spec")
export const SPEC_FILES = ["pgs-api-cards-3ds-sessions.md", "pgs-api-alternative-payments-payouts-webhooks.md"] as const

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\|/, "")
    .replace(/\|$/, "")
    .split("|")
    .map((c) => c.trim())

export function parseTables(text: string): Table[] {
  const lines = text.split("\n")
  const tables: Table[] = []
  let heading = ""
  let lead = ""
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (/^#{1,6} /.test(line)) {
      heading = line.replace(/^#+ /, "").trim()
      lead = ""
      continue
    }
    const isTable = line.startsWith("|") && /^\|[\s|:-]+\|$/.test(lines[i + 1]?.trim() ?? "")
    if (!isTable) {
      if (line.trim() !== "") lead = line.trim()
      continue
    }
    const header = cells(line)
    const rows: string[][] = []
    i += 2
    while (i < lines.length && lines[i].startsWith("|")) rows.push(cells(lines[i++]))
    i--
    tables.push({ heading, lead, header, rows })
  }
  return tables
}

export function loadSpec(dir = SPEC_DIR): SpecDocument[] {
  return SPEC_FILES.map((name) => {
    const text = readFileSync(join(dir, name), "utf8")
    return { name, text, tables: parseTables(text) }
  })
}

/** The one table under `heading` (exact) whose introducing line contains `lead`, if given. */
export function tableOf(doc: SpecDocument, heading: string, lead?: string): Table {
  const found = doc.tables.filter((t) => t.heading === heading && (lead === undefined || t.lead.includes(lead)))
  if (found.length !== 1) throw new Error(`${doc.name}: expected one table under "${heading}"${lead ? ` after "${lead}"` : ""}, found ${found.length}`)
  return found[0]
}

/** A table's rows as records keyed by its (lower-cased) header. */
export const records = (table: Table) =>
  table.rows.map((row) => Object.fromEntries(table.header.map((h, i) => [h.toLowerCase(), row[i] ?? ""])) as Record<string, string>)

/** The text of the line that starts with `prefix` (the documents' one-sentence object descriptions). */
export function lineStartingWith(doc: SpecDocument, prefix: string): string {
  const lines = doc.text.split("\n").filter((l) => l.startsWith(prefix))
  if (lines.length !== 1) throw new Error(`${doc.name}: expected one line starting "${prefix}", found ${lines.length}`)
  return lines[0]
}
