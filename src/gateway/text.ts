/**
 * What no id or field may hold, here or at the gateway: U+0000 (PostgreSQL's text and jsonb refuse it) and an
 * unpaired UTF-16 surrogate (not Unicode at all: encodeURIComponent throws on it, PostgreSQL refuses it).
 */
export const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

const UNPAIRED_SURROGATES = new RegExp(UNPAIRED_SURROGATE.source, "g")

/** The string with what no text column can hold (U+0000, an unpaired surrogate) replaced by U+FFFD: for text a person reads. */
export const storableForReading = (value: string): string => value.replaceAll("\u0000", "\uFFFD").replace(UNPAIRED_SURROGATES, "\uFFFD")

/** Why a string cannot be taken, in a person's words; null when it can. */
export function unacceptableText(value: string): string | null {
  if (value.includes("\u0000")) return "must not contain the invisible character NUL (U+0000), which pasted text sometimes carries"
  if (UNPAIRED_SURROGATE.test(value)) return "must not contain a broken character (an unpaired UTF-16 surrogate)"
  return null
}

/** Deeper than any body of ours or any payment data (they nest at most 4 levels); far short of a stack overflow. */
export const MAX_JSON_DEPTH = 32

export type TextProblem = { path: string[]; why: string; inFieldName: boolean }
export type JsonTextCheck = { tooDeep: true } | { tooDeep: false; problems: TextProblem[] }

type Node = { value: unknown; key: string | null; parent: Node | null; depth: number }
const pathOf = (node: Node): string[] => {
  const path: string[] = []
  for (let at: Node | null = node; at?.key != null; at = at.parent) path.unshift(at.key)
  return path
}

/**
 * Every string and field name of parsed JSON that cannot be taken, in document order, or `tooDeep` when objects
 * and arrays nest deeper than `maxDepth`. Walked with a stack of its own, never by recursion: a body nested
 * thousands deep is refused, not a stack overflow (a 500).
 */
export function checkJsonText(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonTextCheck {
  const problems: TextProblem[] = []
  const stack: Node[] = [{ value, key: null, parent: null, depth: 0 }]
  while (stack.length) {
    const node = stack.pop()!
    if (typeof node.value === "string") {
      const why = unacceptableText(node.value)
      if (why) problems.push({ path: pathOf(node), why, inFieldName: false })
    } else if (node.value && typeof node.value === "object") {
      if (node.depth + 1 > maxDepth) return { tooDeep: true }
      const children: Node[] = []
      for (const [key, child] of Object.entries(node.value)) {
        const entry = { value: child, key, parent: node, depth: node.depth + 1 }
        const why = unacceptableText(key)
        if (why) problems.push({ path: pathOf(entry), why, inFieldName: true })
        else children.push(entry)
      }
      for (let i = children.length - 1; i >= 0; i--) stack.push(children[i])
    }
  }
  return { tooDeep: false, problems }
}
