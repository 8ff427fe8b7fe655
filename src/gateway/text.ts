/**
 * What no id or field may hold, here or at the gateway: U+0000 (PostgreSQL's text and jsonb refuse it) and an
 * unpaired UTF-16 surrogate (not Unicode at all: encodeURIComponent throws on it, PostgreSQL refuses it).
 */
export const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Why a string cannot be taken, in a person's words; null when it can. */
export function unacceptableText(value: string): string | null {
  if (value.includes("\u0000")) return "must not contain a NUL character (U+0000)"
  if (UNPAIRED_SURROGATE.test(value)) return "must not contain a broken character (an unpaired UTF-16 surrogate)"
  return null
}
