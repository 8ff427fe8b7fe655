/**
 * The gateway's 422: `{errors:[{message, params:[string], property}], method, status}`. `property` is the dotted
 * path (payment_method.data.email); for a too-long value `params` are the field name, the maximum and the given
 * size (the other document's example). Assumption: the other params and the messages' wording are not shown.
 */
import type { z } from "zod"
import type { FieldError } from "./responses"

export type { FieldError }

const dotted = (path: ReadonlyArray<PropertyKey>) => path.map(String).join(".")

/** The value at `path` of what was validated (zod leaves it out of most issues). */
function pick(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  return path.reduce<unknown>((value, key) => (value == null ? undefined : (value as Record<PropertyKey, unknown>)[key]), root)
}

/** A string's or an array's size, else the value itself. */
const sizeOf = (value: unknown) => String(typeof value === "string" || Array.isArray(value) ? value.length : value)

function fieldError(issue: z.core.$ZodIssue, root: unknown): FieldError {
  const property = dotted(issue.path)
  const field = String(issue.path.at(-1) ?? "body")
  const given = pick(root, issue.path)
  switch (issue.code) {
    case "too_big": {
      const words = issue.origin === "string" ? "size must be at most" : "must be less than or equal to"
      return { property, message: `${words} ${issue.maximum}`, params: [field, String(issue.maximum), sizeOf(given)] }
    }
    case "too_small": {
      const words = issue.origin === "string" ? "size must be at least" : "must be greater than or equal to"
      return { property, message: `${words} ${issue.minimum}`, params: [field, String(issue.minimum), sizeOf(given)] }
    }
    case "invalid_type":
      if (given === undefined || given === null) return { property, message: "must not be null", params: [field] }
      return { property, message: `must be of type ${issue.expected}`, params: [field, issue.expected] }
    case "invalid_value": {
      const allowed = issue.values.map(String)
      return { property, message: `must be one of ${allowed.join(", ")}`, params: [field, ...allowed] }
    }
    case "invalid_union":
      // An unknown payment_method.type: zod ends the path with the discriminator already.
      if ("discriminator" in issue && issue.discriminator) {
        const path = issue.path.at(-1) === issue.discriminator ? issue.path : [...issue.path, issue.discriminator]
        return { property: dotted(path), message: "is not a supported type", params: [issue.discriminator] }
      }
      return { property, message: issue.message || "has an invalid value", params: [field] }
    default:
      return { property, message: issue.message, params: [field] }
  }
}

/** Every issue of a failed parse of `input`, in the gateway's words. */
export const fieldErrors = (error: z.ZodError, input: unknown): FieldError[] => error.issues.map((issue) => fieldError(issue, input))

/**
 * "Decimal or fractional values (for example 100.00) are rejected", but JSON.parse reads `100.00` as 100. So the
 * raw text is scanned for a top-level `"amount"` whose number has a fraction or an exponent. Only the top level:
 * amounts live there, and merchant metadata may hold anything.
 */
export function fractionalAmountFields(raw: string): string[] {
  const found: string[] = []
  let depth = 0
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]
    if (c === "{" || c === "[") depth++
    else if (c === "}" || c === "]") depth--
    else if (c === '"') {
      const end = closingQuote(raw, i)
      if (depth === 1 && raw.slice(i + 1, end) === "amount") {
        const rest = raw.slice(end + 1)
        const number = /^\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/.exec(rest)?.[1]
        if (number && /[.eE]/.test(number)) found.push("amount")
      }
      i = end
    }
  }
  return found
}

/** Index of the quote that closes the JSON string opening at `start` (escapes skipped). */
function closingQuote(raw: string, start: number): number {
  for (let i = start + 1; i < raw.length; i++) {
    if (raw[i] === "\\") i++
    else if (raw[i] === '"') return i
  }
  return raw.length
}
