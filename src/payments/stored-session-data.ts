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
 *
 * Rolling upgrades (docs/production.md): two releases run side by side, so this reader must take what the next release
 * writes and hand its fields back unharmed. `data_version` says which shape wrote the data; a field the next release
 * adds inside `internal` is read, kept and written back inside `internal`; a field of `internal` found only as a public
 * key (a previous release wrote it back there) is read from there.
 */
export const INTERNAL_KEY = "internal"

/**
 * The shape of the stored data, written inside `internal`. A release may only add to the shape the previous release
 * reads (integration-tests/contract/stored-shapes.spec.ts checks it against the released readers' shapes); data two
 * shapes ahead is refused by name rather than read wrongly (a rollback must go one release at a time).
 */
export const STORED_DATA_VERSION = 1

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
  "data_version",
])

/**
 * The public keys this release knows (session-data.ts's schema; its unit test keeps the two lists equal). A key of
 * `internal` in neither list is a newer release's field.
 */
export const PUBLIC_FIELDS: ReadonlySet<string> = new Set([
  "session_id",
  "integration",
  "method",
  "return_to",
  "gateway_session_id",
  "client_key",
  "environment",
  "script_url",
  "locale",
  "instalments",
  "css_variables",
  "browser_info",
  "next_action",
  "sealed",
  "transaction_id",
  "gateway_status",
  "error",
  "captures",
  "refunds",
  "void",
])

export class StoredSessionDataError extends Error {
  override name = "StoredSessionDataError"
}

/** Data written by a release two or more ahead: never read around (money would be counted from half the fields). */
export class StoredDataTooNewError extends StoredSessionDataError {
  override name = "StoredDataTooNewError"
}

const isRecord = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v)

/**
 * The session's fields as one flat record, from what Medusa stored (either form). Not validated: parseSessionData
 * does that; readers of single fields (webhook lookups, reconciliation) use this directly. Throws on a damaged
 * `internal`, so no check that needs its fields is skipped. The fields a newer release keeps inside `internal` are
 * read too, so they survive this release's next write; a key this release knows as public is never read from there.
 */
export function readStoredSessionData(stored: unknown): Record<string, unknown> {
  if (!isRecord(stored)) return {}
  const fields = internalFieldsOf(stored)
  if (!fields) return stored
  if (typeof fields.data_version === "number" && fields.data_version > STORED_DATA_VERSION + 1)
    throw new StoredDataTooNewError(
      `PGS session data is not valid: it was written by a plugin release two or more ahead of this one (stored data version ${fields.data_version}, this release reads up to ${STORED_DATA_VERSION + 1}); roll back one release at a time`,
    )
  const out: Record<string, unknown> = {}
  // The internal copy is the current one: a public copy left by an earlier version is stale or null.
  for (const [key, value] of Object.entries(stored)) if (key !== INTERNAL_KEY && !INTERNAL_FIELDS.has(key)) out[key] = value
  for (const key of INTERNAL_FIELDS) {
    if (Object.hasOwn(fields, key)) out[key] = fields[key]
    // Written back as a public key by a release that did not know it belongs inside `internal`.
    else if (stored[key] !== undefined && stored[key] !== null) out[key] = stored[key]
  }
  for (const [key, value] of Object.entries(fields)) if (isNewerField(key)) out[key] = value
  return out
}

/** A key of `internal` this release does not know at all: a field of a newer release, kept as it is. */
const isNewerField = (key: string) => !INTERNAL_FIELDS.has(key) && !PUBLIC_FIELDS.has(key) && key !== INTERNAL_KEY && key !== "__proto__" && key !== "constructor"

/** The parsed `internal` object, or null when the data has none (an earlier version's form). */
function internalFieldsOf(stored: Record<string, unknown>): Record<string, unknown> | null {
  const packed = stored[INTERNAL_KEY]
  if (packed === undefined || packed === null) return null
  if (typeof packed !== "string") throw new StoredSessionDataError(`PGS session data is not valid: ${INTERNAL_KEY} must be a string`)
  let fields: unknown
  try {
    fields = JSON.parse(packed)
  } catch {
    throw new StoredSessionDataError(`PGS session data is not valid: ${INTERNAL_KEY} is not JSON`)
  }
  if (!isRecord(fields)) throw new StoredSessionDataError(`PGS session data is not valid: ${INTERNAL_KEY} is not an object`)
  return fields
}

/**
 * The same for readers that must not fail on a damaged `internal` (the admin's views, reconciliation's scans): its
 * fields are then missing, and the provider's parse refuses the session where it is used. Data two releases ahead
 * is still refused: its amounts, captures and refunds read without `internal` would be wrong, not missing.
 */
export function sessionFields(stored: unknown): Record<string, unknown> {
  try {
    return readStoredSessionData(stored)
  } catch (error) {
    if (error instanceof StoredDataTooNewError) throw error
    return isRecord(stored) ? Object.fromEntries(Object.entries(stored).filter(([key]) => key !== INTERNAL_KEY && !INTERNAL_FIELDS.has(key))) : {}
  }
}

/**
 * The form Medusa stores: the storefront's keys as they are, the plugin's own fields in `internal`. `storedBefore`
 * is the data Medusa handed the provider: a public copy an earlier version left there is set to null (Medusa merges
 * what the provider returns into what it stored, so a key left out would stay), and only those, so data that never
 * had them gains no null keys. Data already in the stored form is read first (its internal copy wins, as on every read).
 * A field a newer release kept inside `internal` goes back there.
 */
export function toStoredSessionData(given: object, storedBefore?: unknown): Record<string, unknown> {
  const data = typeof (given as Record<string, unknown>)[INTERNAL_KEY] === "string" ? readStoredSessionData(given) : (given as Record<string, unknown>)
  const newer = [...Object.keys(internalOrEmpty(storedBefore)), ...Object.keys(internalOrEmpty(given))].filter(isNewerField)
  const keptInside = new Set([...INTERNAL_FIELDS, ...newer])
  const out: Record<string, unknown> = {}
  const internal: Record<string, unknown> = { data_version: STORED_DATA_VERSION }
  for (const [key, value] of Object.entries(data)) {
    if (key === INTERNAL_KEY || key === "data_version") continue
    if (keptInside.has(key)) {
      if (value !== undefined) internal[key] = value
    } else out[key] = value
  }
  if (isRecord(storedBefore)) for (const key of INTERNAL_FIELDS) if (storedBefore[key] !== undefined && storedBefore[key] !== null) out[key] = null
  out[INTERNAL_KEY] = JSON.stringify(internal)
  return out
}

/** The `internal` fields of data in the stored form; nothing for anything else, damaged or not. */
function internalOrEmpty(data: unknown): Record<string, unknown> {
  try {
    return (isRecord(data) && internalFieldsOf(data)) || {}
  } catch {
    return {}
  }
}
