/**
 * Webhook test support: deliver bytes to the store's webhook endpoint exactly as given (raw HTTP), sign them with
 * the sandbox's real webhook key (crafted events) or forge them, read the event log, and link a Medusa customer to
 * a gateway customer the way the provider's account holder does.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { request } from "undici"
import { generateTestWebhookHeader } from "../../../src/gateway/webhooks"
import { PGS_MODULE } from "../../../src/modules/pgs"
import type PgsModuleService from "../../../src/modules/pgs/service"
import { waitFor as waitForShort } from "../../support/sandbox"
import type { StoreSuite } from "./store"
import { sessionFields } from "../../support/session-fields"
import { generateKeyPairSync } from "node:crypto"
import { authorizeCard } from "../../sandbox/cards-support"
import { REFUSED_KEY, refusalTally } from "../../../src/modules/pgs/webhook-intake/refusals"
import { eventLockKey } from "../../../src/workflows/pgs-events/event-lock"

/** Polls with a deadline; webhook processing runs workflows, so the default deadline is generous (20 s). */
export const waitFor: typeof waitForShort = (check, opts = {}) => waitForShort(check, { timeoutMs: 20_000, ...opts })

export type EventRow = {
  id: string
  delivery_key: string
  event: string
  subject_id: string | null
  reference: string | null
  payload: any
  received_at: Date
  processed_at: Date | null
  outcome: string | null
  error: string | null
  attempts: number
  next_attempt_at: Date | null
  updated_at: Date
}

const knex = (s: StoreSuite) => s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)

/** The URL of the store's dedicated webhook receiver (option webhookReceiver), which the suite must have turned on. */
export function receiverUrl(s: StoreSuite): string {
  const url = s.container().resolve<PgsModuleService>(PGS_MODULE).webhookReceiverUrl
  if (!url) throw new Error("the dedicated webhook receiver is not running")
  return url
}

/** The sandbox's webhook signing key (in-process), for authentic crafted events. */
export const gatewayWebhookKey = (s: StoreSuite) => s.sandbox.sandbox.context.keys.webhook.privateKey

/** POST raw bytes to the webhook endpoint (the Medusa route unless `url` says otherwise) with exactly these headers. */
export async function deliver(s: StoreSuite, body: string | Buffer, headers: Record<string, string | undefined> = {}, url = s.webhookUrl) {
  const h: Record<string, string> = { "content-type": "application/json" }
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) delete h[k]
    else h[k] = v
  }
  const started = Date.now()
  const res = await request(url, { method: "POST", headers: h, body })
  const text = await res.body.text()
  let json: any
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: res.statusCode, body: json, text, headers: res.headers, ms: Date.now() - started }
}

/** Deliver bytes signed the way the gateway signs them. */
export async function deliverSigned(s: StoreSuite, body: string, url = s.webhookUrl) {
  return deliver(s, body, { authorization: await generateTestWebhookHeader({ body, privateKey: gatewayWebhookKey(s) }) }, url)
}

/**
 * What the gateway sends a store whose PGS_WEBHOOK_PUBLIC_KEY holds another key: its own event for a real
 * transaction (a Direct API purchase outside Medusa), exactly as it delivered it, signed with a key the store lacks.
 */
export async function gatewayEventUnderAnotherKey(s: StoreSuite): Promise<{ body: string; authorization: string; sign(body: string): Promise<string> }> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 })
  const sign = (body: string) => generateTestWebhookHeader({ body, privateKey })
  const tx = (await authorizeCard(s.sandbox)).body.result
  const { body } = await sandboxDelivery(s, tx.id)
  // Its delivery with the right key is recorded first, so nothing the caller counts changes meanwhile.
  await processedEvent(s, tx.id)
  return { body, authorization: await sign(body), sign }
}

/** Closes the "Webhooks refused" item, so that a test counts only its own deliveries. */
export async function closeRefusedNotice(s: StoreSuite): Promise<void> {
  await knex(s)("pgs_follow_up").where({ key: REFUSED_KEY }).whereNull("deleted_at").update({ state: "done", resolved_at: new Date() })
}

/** Once every refused delivery handed to this process is checked against the gateway and its count written. */
export async function refusalsSettled(s: StoreSuite): Promise<void> {
  await s.container().resolve<PgsModuleService>(PGS_MODULE).gatewayRecordCheck().idle()
  await refusalTally(knex(s), s.container().resolve("logger")).flush()
}

export async function eventRows(s: StoreSuite, where: Partial<Pick<EventRow, "subject_id" | "event" | "delivery_key">> = {}): Promise<EventRow[]> {
  return knex(s)("pgs_webhook_event").where(where).orderBy("received_at", "asc")
}

export const countEvents = async (s: StoreSuite) => Number((await knex(s)("pgs_webhook_event").count({ n: "*" }))[0].n)

/** The event for this subject (and name) once processed or failed. */
export function processedEvent(s: StoreSuite, subjectId: string, event?: string, timeoutMs = 20_000): Promise<EventRow> {
  return waitFor(
    async () => (await eventRows(s, { subject_id: subjectId, ...(event ? { event } : {}) })).find((r) => r.processed_at || r.error),
    { timeoutMs, what: `processed ${event ?? "event"} for ${subjectId}` },
  )
}

/** Whether the lock every run of this session's events takes is free now (taken and given back at once). */
export async function eventLockFree(s: StoreSuite, reference: string): Promise<boolean> {
  const locking = s.container().resolve(Modules.LOCKING)
  const ownerId = `probe-${Date.now()}`
  try {
    await locking.acquire(eventLockKey(reference), { ownerId })
  } catch {
    return false
  }
  await locking.release(eventLockKey(reference), { ownerId })
  return true
}

/** The body the sandbox sent for this transaction's event (its exact bytes). */
export async function sandboxDelivery(s: StoreSuite, subjectId: string, event?: string): Promise<{ body: string; attempts: any[] }> {
  return waitFor(async () => {
    const res = await s.sandbox.control("GET", `/_sandbox/webhooks/deliveries?subject_id=${encodeURIComponent(subjectId)}`)
    const list = (res.body?.deliveries ?? res.body ?? []) as any[]
    return list.find((d) => (!event || d.event === event) && d.url === s.webhookUrl)
  }, { what: `sandbox delivery ${event ?? ""} for ${subjectId}` })
}

/** A gateway customer, and a Medusa customer's PGS account holder pointing at it (as the provider creates). */
export async function linkGatewayCustomer(s: StoreSuite, customer: { id: string; email: string }) {
  const created = await s.sandbox.api("POST", "/api/customers", { email: customer.email, first_name: "Grace", last_name: "Hopper" })
  if (created.status !== 200) throw new Error(`gateway customer: ${created.status} ${created.text}`)
  const gatewayCustomerId: string = created.body.id
  const payment = s.container().resolve(Modules.PAYMENT) as any
  // The generated bulk create (MedusaService): createAccountHolder would call the provider to make another customer.
  const [holder] = await payment.createAccountHolders([
    { provider_id: "pp_pgs_pgs", external_id: gatewayCustomerId, email: customer.email, data: { id: gatewayCustomerId } },
  ])
  await s.container().resolve(ContainerRegistrationKeys.LINK).create({
    [Modules.CUSTOMER]: { customer_id: customer.id },
    [Modules.PAYMENT]: { account_holder_id: holder.id },
  })
  return gatewayCustomerId
}

/** The order a cart became, if any (Medusa's order_cart link). */
export async function orderOfCart(s: StoreSuite, cartId: string): Promise<string | null> {
  const query = s.container().resolve(ContainerRegistrationKeys.QUERY) as any
  const { data } = await query.graph({ entity: "order_cart", fields: ["order_id"], filters: { cart_id: cartId } })
  return data[0]?.order_id ?? null
}

export async function paymentSession(s: StoreSuite, sessionId: string) {
  const query = s.container().resolve(ContainerRegistrationKeys.QUERY) as any
  const { data } = await query.graph({ entity: "payment_session", fields: ["id", "status", "data", "payment_collection_id"], filters: { id: sessionId } })
  return data[0]
}

/** A capture, refund or void made in the gateway's own dashboard (not through Medusa); answers its transaction id. */
export async function manageAtGateway(s: StoreSuite, session: any, parentId: string, type: "CAPTURE" | "REFUND" | "VOID", amount: number) {
  const res = await s.sandbox.api("POST", "/api/transactions/manage", {
    terminal_id: sessionFields(session.data).terminal_id,
    reference: sessionFields(session.data).reference,
    parent_transaction_id: parentId,
    transaction_type: type,
    amount,
    currency: String(sessionFields(session.data).currency_code).toUpperCase(),
  })
  if (res.status !== 200 || res.body.status !== "APPROVED") throw new Error(`manage ${type}: ${res.status} ${res.text}`)
  return res.body.id as string
}
