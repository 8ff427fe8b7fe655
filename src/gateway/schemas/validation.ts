/**
 * Turning schema failures into the gateway's 422 shape, `{errors:[{message, params, property}]}`,
 * so a request refused locally by the client names the field exactly as the gateway would.
 */
import type { z } from "zod"

export type GatewayFieldError = { message: string; params: string[]; property: string }

/** Dotted path as the gateway writes it (`payment_method.data.email`, `items.0.name`). */
export const toProperty = (path: ReadonlyArray<PropertyKey>) => path.map(String).join(".")

function given(input: unknown): string {
  if (typeof input === "string") return String(input.length)
  if (Array.isArray(input)) return String(input.length)
  return String(input)
}

/** The value at a path of the original input (zod 4 leaves `issue.input` out unless asked to report it). */
function valueAt(root: unknown, path: ReadonlyArray<PropertyKey>): unknown {
  let current: any = root
  for (const key of path) current = current == null ? undefined : current[key as any]
  return current
}

function describe(rawIssue: z.core.$ZodIssue, root: unknown): GatewayFieldError {
  const issue = { ...rawIssue, input: "input" in rawIssue && rawIssue.input !== undefined ? rawIssue.input : valueAt(root, rawIssue.path) } as z.core.$ZodIssue & { input: unknown }
  const property = toProperty(issue.path)
  const field = String(issue.path[issue.path.length - 1] ?? "body")
  switch (issue.code) {
    case "too_big":
      if (issue.origin === "string")
        return { property, message: `size must be at most ${issue.maximum}`, params: [field, String(issue.maximum), given(issue.input)] }
      return { property, message: `must be less than or equal to ${issue.maximum}`, params: [field, String(issue.maximum), given(issue.input)] }
    case "too_small":
      if (issue.origin === "string")
        return { property, message: `size must be at least ${issue.minimum}`, params: [field, String(issue.minimum), given(issue.input)] }
      return { property, message: `must be greater than or equal to ${issue.minimum}`, params: [field, String(issue.minimum), given(issue.input)] }
    case "invalid_type":
      return issue.input === undefined || issue.input === null
        ? { property, message: "must not be null", params: [field] }
        : { property, message: `must be of type ${issue.expected}`, params: [field, issue.expected] }
    case "invalid_value":
      return { property, message: `must be one of ${issue.values.map(String).join(", ")}`, params: [field, ...issue.values.map(String)] }
    case "invalid_union":
      if ("discriminator" in issue && issue.discriminator) {
        // zod 4 already ends the path with the discriminator key (payment_method.type); older shapes did not.
        const path = issue.path[issue.path.length - 1] === issue.discriminator ? issue.path : [...issue.path, issue.discriminator]
        return { property: toProperty(path), message: "is not a supported type", params: [issue.discriminator] }
      }
      return { property, message: issue.message || "has an invalid value", params: [field] }
    default:
      return { property, message: issue.message, params: [field] }
  }
}

/** `input` is the value that was validated: it gives the "given size" param of length errors. */
export function toGatewayErrors(error: z.ZodError, input?: unknown): GatewayFieldError[] {
  return error.issues.map((issue) => describe(issue, input))
}

/** Index of the quote closing the JSON string that opens at `start`. */
function endOfString(raw: string, start: number): number {
  let i = start + 1
  while (i < raw.length) {
    if (raw[i] === "\\") i += 2
    else if (raw[i] === '"') return i
    else i++
  }
  return raw.length
}

const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/

/**
 * JSON.parse turns `100.00` into 100, yet the gateway rejects any decimal or fractional amount at validation.
 * Read the raw bytes of the top-level object for `"amount": <number with a fraction or exponent>`. Only the
 * top level: amounts live there, and free-form metadata (`{"order_amount": "19.99"}`) is none of our business.
 */
export function findNonIntegerAmounts(rawJson: string): string[] {
  const offenders: string[] = []
  let depth = 0
  let i = 0
  while (i < rawJson.length) {
    const c = rawJson[i]
    if (c === '"') {
      const end = endOfString(rawJson, i)
      if (depth === 1) {
        let j = end + 1
        while (/\s/.test(rawJson[j] ?? "")) j++
        // A string followed by a colon is a key.
        if (rawJson[j] === ":" && rawJson.slice(i + 1, end) === "amount") {
          j++
          while (/\s/.test(rawJson[j] ?? "")) j++
          const token = NUMBER.exec(rawJson.slice(j, j + 64))?.[0]
          if (token && /[.eE]/.test(token)) offenders.push("amount")
        }
      }
      i = end + 1
      continue
    }
    if (c === "{" || c === "[") depth++
    else if (c === "}" || c === "]") depth--
    i++
  }
  return offenders
}
