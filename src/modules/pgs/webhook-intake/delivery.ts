/** What the event log keeps about one delivery: its identity (the bytes' digest), event name, subject, reference. */
import { createHash } from "node:crypto"
import { TOKENIZATION_EVENT, type WebhookEvent } from "../../../gateway"
import type { NewWebhookEvent } from "../webhook-event-record"

/** Gateway retries send the same bytes, so their SHA-512 identifies the delivery. */
export const deliveryKey = (raw: Buffer) => createHash("sha512").update(raw).digest("hex")

/** `key`: the body's SHA-512, as verification computed it (WebhookVerifier's `sha512`; the bytes are hashed once). */
export function describeVerified(event: WebhookEvent, key: string): NewWebhookEvent {
  if (event.event === TOKENIZATION_EVENT) {
    const p = event.payload
    const paymentMethodId = "data" in p ? p.data.payment_method_id : p.payment_method.id
    return { delivery_key: key, event: event.event, subject_id: paymentMethodId, reference: null, payload: event.payload }
  }
  return {
    delivery_key: key,
    event: event.event,
    subject_id: event.payload.id,
    reference: event.payload.reference,
    payload: event.payload,
  }
}

/** An authentic delivery whose body is not an event we know: kept for the record, never acted on. */
export function describeUnsupported(raw: Buffer): NewWebhookEvent {
  let json: unknown = null
  try {
    json = JSON.parse(raw.toString("utf8"))
  } catch {
    json = null
  }
  const obj = json && typeof json === "object" ? (json as Record<string, unknown>) : {}
  const payload = obj.payload && typeof obj.payload === "object" ? (obj.payload as Record<string, unknown>) : {}
  const str = (v: unknown) => (typeof v === "string" ? v.slice(0, 200) : null)
  return {
    delivery_key: deliveryKey(raw),
    event: str(obj.event) ?? "unknown",
    subject_id: str(payload.id),
    reference: str(payload.reference),
    payload: { unsupported: true, body: raw.toString("utf8").slice(0, 10_000) },
  }
}
