/**
 * What a field table (or a one-sentence object description) of the spec says about each field: its name,
 * whether it is required, its length limits, its allowed values, its kind and the names inside it.
 * Only what the words state is recorded; anything the text leaves open stays undefined and is not checked.
 */
import { records, type Table } from "./markdown"

export type FieldSpec = {
  /** Dotted path inside the object (payment_method.data.email). */
  name: string
  /** true/false when the text says so; undefined when it does not. */
  required?: boolean
  /** "required for card transactions", "required for INR": required only under another field's value. */
  conditional?: boolean
  nullable?: boolean
  min?: number
  max?: number
  /** "N letters" (currency, country). */
  letters?: number
  /** "exactly N digits". */
  digits?: number
  values?: string[]
  kind?: "integer" | "boolean" | "object" | "string"
  /** Names the text lists inside an object field. */
  nested?: string[]
  /** The words the facts came from, for messages. */
  text: string
}

const withoutParentheses = (s: string) => {
  let out = ""
  let depth = 0
  for (const c of s) {
    if (c === "(") depth++
    else if (c === ")") depth = Math.max(0, depth - 1)
    else if (depth === 0) out += c
  }
  return out
}

const backticked = (s: string) => [...s.matchAll(/`([^`]+)`/g)].map((m) => m[1])

/** Split at commas (and " and ") outside parentheses. */
export function topLevelItems(s: string): string[] {
  const items: string[] = []
  let depth = 0
  let current = ""
  for (let i = 0; i < s.length; i++) {
    const c = s[i]
    if (c === "(") depth++
    if (c === ")") depth--
    if (depth === 0 && (c === "," || s.startsWith(" and ", i))) {
      items.push(current.trim())
      current = ""
      if (c !== ",") i += 4
      continue
    }
    current += c
  }
  if (current.trim()) items.push(current.trim())
  return items.filter(Boolean)
}

/**
 * An enumeration written as the whole cell: `A` or `B`, `A`, `B`, only `PLN`, or bare upper-case words
 * (PURCHASE, AUTHORIZE, OCT, PAYOUT). Parenthesised remarks are ignored.
 */
export function valuesOf(cell: string): string[] | undefined {
  const bare = withoutParentheses(cell).replace(/\s+/g, " ").trim().replace(/^only /, "")
  if (/^`[^`]+`(\s*(,|or|, or)\s*`[^`]+`)*$/.test(bare)) return backticked(bare)
  if (/^[A-Z][A-Z0-9_]+(\s*(,|or)\s*[A-Z][A-Z0-9_]+)+$/.test(bare)) return bare.split(/\s*(?:,|or)\s*/)
  return undefined
}

/** A list inside longer words: "allowed `00`,`01`", "plain text: `a`, `b` or `c`". */
function listedValues(words: string): string[] | undefined {
  const list = /(?:allowed|:)\s*(`[^`]+`(?:\s*(?:,|or)\s*`[^`]+`)+)/.exec(words)?.[1]
  return list ? backticked(list) : undefined
}

function limitsOf(words: string): Pick<FieldSpec, "min" | "max" | "letters" | "digits"> {
  const w = withoutParentheses(words)
  const range = /(\d+) to (\d+)/.exec(w)
  const upper = /(?:up to|at most|max) (\d+)/.exec(w)
  const letters = /(\d+) letters/.exec(w)
  const digits = /exactly (\d+) digits/.exec(w)
  return {
    ...(range ? { min: Number(range[1]), max: Number(range[2]) } : upper ? { max: Number(upper[1]) } : {}),
    ...(letters ? { letters: Number(letters[1]) } : {}),
    ...(digits ? { digits: Number(digits[1]) } : {}),
  }
}

function kindOf(type: string): FieldSpec["kind"] {
  const t = type.toLowerCase()
  if (/^integer|^int\b/.test(t)) return "integer"
  if (t.startsWith("boolean")) return "boolean"
  if (/^object|^customer$|^transaction\b/.test(t) || t.startsWith("`{")) return "object"
  if (t.startsWith("string")) return "string"
  return undefined
}

/** Names listed inside an object field: `a`, `b` (dotted ones relative to the field), `{type, data}`, or a plain list. */
function nestedOf(field: string, words: string): string[] | undefined {
  const ticks = backticked(words).flatMap((t) => (t.startsWith("{") ? t.replace(/[{}]/g, "").split(/\s*,\s*/) : [t]))
  const names = ticks.filter((t) => /^[a-z_][a-z0-9_.]*$/.test(t)).map((t) => (t.startsWith(`${field}.`) ? t.slice(field.length + 1) : t))
  if (names.length) return names
  if (/^[a-z_]+(, [a-z_]+)+$/.test(words.trim())) return words.trim().split(", ")
  return undefined
}

function requiredOf(column: string | undefined, words: string): Pick<FieldSpec, "required" | "conditional"> {
  if (column !== undefined && column !== "") {
    if (/^yes\b/i.test(column)) return { required: true }
    if (/^no\b/i.test(column)) return { required: false }
  }
  if (/may be required|depending on/.test(words)) return {}
  if (/may be absent/.test(words)) return { required: false }
  if (/required for|required with/.test(words)) return { conditional: true }
  if (/^optional|\boptional\b/.test(words)) return { required: false }
  if (/\brequired\b/.test(words)) return { required: true }
  return {}
}

/** Field names of a cell: `a, b, c`; a dotted first name lends its prefix to the rest (payment_method.data.address, city). */
function namesOf(cell: string): string[] {
  const parts = cell.replace(/`/g, "").split(/\s*,\s*/).filter(Boolean)
  const prefix = parts[0].includes(".") ? parts[0].slice(0, parts[0].lastIndexOf(".") + 1) : ""
  return parts.map((p, i) => (i > 0 && !p.includes(".") ? prefix + p : p))
}

/** One field from its name, its type words, a Required column (if any) and its notes. */
export function fieldFrom(name: string, type: string, requiredColumn: string | undefined, notes: string): FieldSpec {
  const words = `${type} ${notes}`.trim()
  const kind = kindOf(type)
  return {
    name,
    text: [type, requiredColumn, notes].filter(Boolean).join(" | "),
    ...requiredOf(requiredColumn, notes),
    ...(/or null|nullable/.test(type) ? { nullable: true } : /^string$|^integer|^boolean$/.test(type) ? { nullable: false } : {}),
    ...(kind === "object" ? {} : limitsOf(words)),
    ...(kind !== "object" && (valuesOf(notes) ?? valuesOf(type) ?? listedValues(notes))
      ? { values: valuesOf(notes) ?? valuesOf(type) ?? listedValues(notes) }
      : {}),
    ...(kind ? { kind } : {}),
    ...(kind === "object" ? { nested: nestedOf(name, notes) } : {}),
  }
}

/** Fields of a table with a Field column and some of Type, Required, Notes/Rule/Meaning. */
export function fieldsOfTable(table: Table): FieldSpec[] {
  return records(table).flatMap((r) => {
    const notes = r.notes ?? r.rule ?? r.meaning ?? ""
    return namesOf(r.field).map((name) => fieldFrom(name, r.type ?? "", r.required, notes))
  })
}

/**
 * Fields of a sentence such as "`email` (string, required, valid address, max 512), `first_name` (max 255)".
 * `rest` applies to items without their own words ("`a`, `b`, `c` (strings)": the last remark covers the list).
 */
export function fieldsOfSentence(sentence: string, opts: { otherwiseRequired?: boolean } = {}): FieldSpec[] {
  const fields: FieldSpec[] = []
  let optionalFromHere = false
  for (const item of topLevelItems(sentence)) {
    if (/^optionally\b|^optional\b/.test(item)) optionalFromHere = true
    const name = backticked(item)[0]
    if (!name) continue
    const words = item.slice(item.indexOf(name) + name.length + 1).trim().replace(/\.$/, "")
    const inner = /^\((.*)\)$/s.exec(words)?.[1] ?? words
    const type = /^(string|integer|boolean|object|date-time)(?: or null)?/.exec(inner)?.[0] ?? ""
    const field = fieldFrom(name, type, undefined, inner)
    if (optionalFromHere) field.required = false
    if (field.required === undefined && opts.otherwiseRequired !== undefined && !field.conditional) field.required = opts.otherwiseRequired
    // "(object: `country` 2 letters, `address` max 255, ...)": the object's own fields, read the same way.
    if (inner.startsWith("object:")) {
      field.kind = "object"
      const children = fieldsOfSentence(inner.slice("object:".length), opts)
      field.nested = children.map((c) => c.name)
      fields.push(...children.map((c) => ({ ...c, name: `${name}.${c.name}` })))
    }
    fields.push(field)
  }
  return fields
}

/** The names a sentence lists (`a`, `b` and `c`), in order. */
export const namesInSentence = (sentence: string) => topLevelItems(sentence).map((i) => backticked(i)[0]).filter(Boolean)
