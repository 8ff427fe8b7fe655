/**
 * Secrets never reach logs: client secret, access tokens, card and network-token fields, 3-D Secure payment
 * data, wallet tokens and stored payment-method ids. Everything the client logs goes through `redact`.
 */
const SECRET_KEY = /secret|password|token|authorization|encrypted_|card_number|cvv|cryptogram|payment_data|payment_method_id|creq|cres|threeDSMethodData/i

export const REDACTED = "[REDACTED]"

/** A deep copy with every secret-named field replaced; strings that look like bearer tokens are masked too. */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 8) return "[...]"
  if (typeof value === "string") return value.replace(/(Bearer\s+)\S+/gi, `$1${REDACTED}`)
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1))
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) out[k] = SECRET_KEY.test(k) && v != null ? REDACTED : redact(v, depth + 1)
    return out
  }
  return value
}

/** A path with the stored payment-method id hidden (DELETE /api/payment-methods/{id}). */
export const redactPath = (path: string) => path.replace(/(\/api\/payment-methods\/)[^/?]+/, `$1${REDACTED}`)

export type GatewayLogEntry = {
  level: "debug" | "warn" | "error"
  message: string
  operation: string
  attempt: number
  statusCode?: number | null
  requestId?: string | null
  durationMs?: number
  /** Redacted request body (debug only). */
  body?: unknown
  error?: string
}

/** The logger hook: receives entries that are already redacted. */
export type GatewayLogger = (entry: GatewayLogEntry) => void
