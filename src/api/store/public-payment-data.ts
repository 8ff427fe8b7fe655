/**
 * What a store response may show of a PGS payment's `data`. Medusa serves a payment session's data (and a payment's,
 * copied from it) in store cart, order and payment-collection responses, and our own store routes answer the session
 * too. What the storefront needs stays: the integration, the next 3-D Secure or redirect step, the gateway's status
 * and the shopper-safe error, the embedded fields' session id and client key (public by design: they only open that
 * session). The gateway's transaction ids (the payment's and its captures', refunds' and void's), its hosted page and
 * customer ids and the shopper's IP are the store's to keep: Medusa still stores them, and the admin API and the
 * plugin's own code read them there.
 */
import type { MedusaNextFunction, MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { INTERNAL_FIELDS, INTERNAL_KEY } from "../../payments/stored-session-data"
import { isPgsProviderId } from "../../payments/session-data"

/** Public keys a store response leaves out: the gateway's transaction records. */
const SERVER_ONLY: ReadonlySet<string> = new Set(["transaction_id", "captures", "refunds", "void"])
/**
 * Public keys a store response shows as null: the shopper's browser details and every field that now lives inside
 * `internal`. This version writes them as null (the shape an earlier reader knows); a session or payment an earlier
 * version made may hold values there (hosted page and customer ids, the IP), which the storefront reads none of.
 */
const CLEARED: ReadonlySet<string> = new Set(["browser_info", ...INTERNAL_FIELDS])
/** Fields inside `internal` a store response leaves out. */
const SERVER_ONLY_INTERNAL: ReadonlySet<string> = new Set(["hosted_page_id", "gateway_customer_id", "customer_ip"])
/**
 * Fields inside `internal` a store response may show: only those this release knows to be the shopper's. A field a
 * newer release keeps there (two releases run side by side during a rolling upgrade) may be the store's alone.
 */
const SHOWN_INTERNAL = [...INTERNAL_FIELDS].filter((key) => !SERVER_ONLY_INTERNAL.has(key))

type Json = Record<string, unknown>
const isRecord = (v: unknown): v is Json => !!v && typeof v === "object" && !Array.isArray(v)

/** A PGS payment's data without what only the server may see; anything else is answered as it is. */
export function publicPaymentData(data: Json): Json {
  const out: Json = {}
  for (const [key, value] of Object.entries(data)) if (!SERVER_ONLY.has(key)) out[key] = CLEARED.has(key) ? null : value
  const internal = data[INTERNAL_KEY]
  if (typeof internal === "string") {
    try {
      const fields = JSON.parse(internal) as unknown
      if (isRecord(fields)) out[INTERNAL_KEY] = JSON.stringify(Object.fromEntries(SHOWN_INTERNAL.filter((key) => key in fields).map((key) => [key, fields[key]])))
    } catch {
      // Not JSON: not ours to read (the provider refuses such a session where it is used); left out.
      delete out[INTERNAL_KEY]
    }
  }
  return out
}

/** A session or payment of a PGS provider (by provider id, or, where a route answers without it, by its data's form). */
const isPgsPayment = (value: Json): value is Json & { data: Json } =>
  isRecord(value.data) && (isPgsProviderId(value.provider_id as string) || (value.provider_id === undefined && typeof value.data[INTERNAL_KEY] === "string"))

const MAX_DEPTH = 12

/** The body with every PGS payment's data made public; objects without one are the same objects (nothing copied). */
export function withPublicPaymentData(body: unknown, depth = 0): unknown {
  if (depth > MAX_DEPTH || !body || typeof body !== "object") return body
  if (Array.isArray(body)) {
    let changed = false
    const items = body.map((item) => {
      const next = withPublicPaymentData(item, depth + 1)
      changed ||= next !== item
      return next
    })
    return changed ? items : body
  }
  const record = body as Json
  let out: Json | null = null
  const pgs = isPgsPayment(record)
  for (const [key, value] of Object.entries(record)) {
    const next = key === "data" && pgs ? publicPaymentData(record.data) : withPublicPaymentData(value, depth + 1)
    if (next !== value) (out ??= { ...record })[key] = next
  }
  // A session's context holds the customer record and its account holder (the gateway's customer id): the store's.
  if (pgs && record.context !== undefined) delete (out ??= { ...record }).context
  return out ?? body
}

/** Wraps res.json on the store routes that can carry a payment's data. */
export function hideServerOnlyPaymentData(_req: MedusaRequest, res: MedusaResponse, next: MedusaNextFunction): void {
  const json = res.json.bind(res)
  res.json = (body: unknown) => json(withPublicPaymentData(body))
  next()
}

/** Prefixes (Express matches them in any case): carts, orders, payment collections, the plugin's store routes. */
export const publicPaymentDataMiddlewares = ["/store/carts", "/store/orders", "/store/payment-collections", "/store/pgs"].map((matcher) => ({
  matcher,
  middlewares: [hideServerOnlyPaymentData],
}))
