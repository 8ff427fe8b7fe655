/**
 * PostgreSQL's text and jsonb refuse U+0000 and lone UTF-16 surrogates, which valid JSON may carry (`\u0000`,
 * `\ud800`). A genuine webhook holding one must still be recorded and processed, never refused for 24 hours of
 * retries. So every string (jsonb keys included) that PostgreSQL cannot take — or that begins with our marker, so
 * the mapping stays reversible — is stored as the marker followed by its UTF-16 code units in hex, and read back
 * exactly. Every other string is stored as it is.
 */
import { unacceptableText } from "../../gateway/text"

const MARKER = "\u001bpgs-utf16:"

const NOT_STORABLE = (value: string) => unacceptableText(value) !== null

function encodeString(value: string): string {
  if (!NOT_STORABLE(value) && !value.startsWith(MARKER)) return value
  let hex = ""
  for (let i = 0; i < value.length; i++) hex += value.charCodeAt(i).toString(16).padStart(4, "0")
  return MARKER + hex
}

function decodeString(value: string): string {
  if (!value.startsWith(MARKER)) return value
  const hex = value.slice(MARKER.length)
  let out = ""
  for (let i = 0; i + 4 <= hex.length; i += 4) out += String.fromCharCode(parseInt(hex.slice(i, i + 4), 16))
  return out
}

function mapStrings(value: unknown, map: (s: string) => string): unknown {
  if (typeof value === "string") return map(value)
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map))
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [map(k), mapStrings(v, map)]))
  }
  return value
}

/** A text column's value. */
export const toStorableText = <T extends string | null>(value: T): T => (value === null ? value : (encodeString(value) as T))
export const fromStorableText = <T extends string | null>(value: T): T => (value === null ? value : (decodeString(value) as T))

/** A jsonb column's value (any JSON). */
export const toStorableJson = (value: unknown): unknown => mapStrings(value, encodeString)
export const fromStorableJson = (value: unknown): unknown => mapStrings(value, decodeString)
