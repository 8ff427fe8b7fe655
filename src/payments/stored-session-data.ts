/**
 * How a PGS session's data is stored in Medusa. The keys a storefront reads (the integration, the next action, the
 * embedded fields' client key and script, the transaction's status and error) stay keys of their own; the fields only
 * the plugin reads (the attempt's reference, terminal, amount and currency with their integrity code, the chosen
 * method, the saved card's customer and consent; an earlier version's shopper IP, sealed now) travel as one JSON
 * string under `internal`.
 * Why: Medusa copies a session's data key by key into every workflow step and checkpoint of a checkout, at roughly
 * 0.1–0.2 ms per key (docs/benchmarks.md); a string is one key however long.
 *
 * Sessions and payments an earlier version of the plugin made have those fields as public keys and no `internal`:
 * they are read as they are, and the provider's first write of the new form sets those public copies to null.
 */
export const INTERNAL_KEY = "internal"

/** The fields kept inside `internal`. Everything else stays a public key (the storefront, SQL and routes read those). */
export const INTERNAL_FIELDS: ReadonlySet<string> = new Set([
  "reference",
  "attempt",
  "terminal_id",
  "transaction_type",
  "currency_code",
  "amount_minor",
  "integrity",
  "hosted_page_id",
  "payment_method",
  "save_card",
  "tokenize_for",
  "merchant_consent",
  "simulated_flow",
  "gateway_customer_id",
  "customer_ip",
])

export class StoredSessionDataError extends Error {
  override name = "StoredSessionDataError"
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v)

/**
 * The session's fields as one flat record, from what Medusa stored (either form). Not validated: parseSessionData
 * does that; readers of single fields (webhook lookups, reconciliation) use this directly. Throws on a damaged
 * `internal`, so no check that needs its fields is skipped.
 */
export function readStoredSessionData(stored: unknown): Record<string, unknown> {
  if (!isRecord(stored)) return {}
  const packed = stored[INTERNAL_KEY]
  if (packed === undefined || packed === null) return stored
  if (typeof packed !== "string") throw new StoredSessionDataError(`PGS session data is not valid: ${INTERNAL_KEY} must be a string`)
  let fields: unknown
  try {
    fields = JSON.parse(packed)
  } catch {
    throw new StoredSessionDataError(`PGS session data is not valid: ${INTERNAL_KEY} is not JSON`)
  }
  if (!isRecord(fields)) throw new StoredSessionDataError(`PGS session data is not valid: ${INTERNAL_KEY} is not an object`)
  const out: Record<string, unknown> = {}
  // The internal copy is the current one: a public copy left by an earlier version is stale or null.
  for (const [key, value] of Object.entries(stored)) if (key !== INTERNAL_KEY && !INTERNAL_FIELDS.has(key)) out[key] = value
  for (const key of INTERNAL_FIELDS) if (Object.hasOwn(fields, key)) out[key] = fields[key]
  return out
}

/**
 * The same for readers that must not fail on a damaged `internal` (the admin's views, reconciliation's scans): its
 * fields are then missing, and the provider's parse refuses the session where it is used.
 */
export function sessionFields(stored: unknown): Record<string, unknown> {
  try {
    return readStoredSessionData(stored)
  } catch {
    return isRecord(stored) ? Object.fromEntries(Object.entries(stored).filter(([key]) => key !== INTERNAL_KEY && !INTERNAL_FIELDS.has(key))) : {}
  }
}

/**
 * The form Medusa stores: the storefront's keys as they are, the plugin's own fields in `internal`. `storedBefore`
 * is the data Medusa handed the provider: a public copy an earlier version left there is set to null (Medusa merges
 * what the provider returns into what it stored, so a key left out would stay), and only those, so data that never
 * had them gains no null keys. Data already in the stored form is read first (its internal copy wins, as on every read).
 */
export function toStoredSessionData(given: object, storedBefore?: unknown): Record<string, unknown> {
  const data = typeof (given as Record<string, unknown>)[INTERNAL_KEY] === "string" ? readStoredSessionData(given) : (given as Record<string, unknown>)
  const out: Record<string, unknown> = {}
  const internal: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(data)) {
    if (key === INTERNAL_KEY) continue
    if (INTERNAL_FIELDS.has(key)) {
      if (value !== undefined) internal[key] = value
    } else out[key] = value
  }
  if (isRecord(storedBefore)) for (const key of INTERNAL_FIELDS) if (storedBefore[key] !== undefined && storedBefore[key] !== null) out[key] = null
  out[INTERNAL_KEY] = JSON.stringify(internal)
  return out
}
