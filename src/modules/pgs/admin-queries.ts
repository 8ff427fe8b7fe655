/**
 * What the dashboard's admin routes need from the module beyond CRUD: the connection settings (secrets masked),
 * a connection test that really fetches a token, and the webhook events about a set of transactions.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { parseOptions, payoutTerminalFrom } from "./options"
import { buildGatewayClient } from "./gateway"
import { WEBHOOK_EVENT_TABLE } from "./models/table-names"
import type PgsModuleService from "./service"
import { fromStorableJson, fromStorableText } from "./storable"
import { fromMinorUnits } from "../../gateway"
import { FOLLOW_UP_TABLE } from "./models/follow-up"
import { WEBHOOK_RETRY } from "./webhook-queue"
import { newestFirst } from "./keyset"

/** "••••••ab12": enough to tell two secrets apart, never enough to use one. Short values are hidden entirely. */
export function maskSecret(value: string | null | undefined): string | null {
  if (!value) return null
  return value.length < 12 ? "••••••" : `••••••${value.slice(-4)}`
}

export type ConnectionView =
  | { configured: true; settings: Record<string, string | null> }
  | { configured: false; problem: string }

/** The connection settings as the dashboard may show them: URLs and ids in full, secrets masked, keys as present/absent. */
export function connectionView(service: PgsModuleService): ConnectionView {
  const raw = service.rawOptions
  let o
  try {
    o = parseOptions(raw)
  } catch (error) {
    // The message names options and how to fix them, never their values.
    return { configured: false, problem: (error as Error).message }
  }
  let payoutTerminal: string | null = null
  try {
    payoutTerminal = payoutTerminalFrom(raw)
  } catch {
    payoutTerminal = null
  }
  return {
    configured: true,
    settings: {
      api_url: o.apiUrl,
      auth_url: o.authUrl,
      realm: o.realm,
      environment: o.environment,
      client_id: o.clientId,
      client_secret: maskSecret(o.clientSecret),
      client_key: maskSecret(o.clientKey),
      merchant_public_key: o.merchantPublicKey ? "configured" : null,
      webhook_public_key: o.webhookPublicKey ? "configured" : null,
      default_terminal_id: o.defaultTerminalId,
      default_transaction_type: o.defaultTransactionType,
      payout_terminal_id: payoutTerminal,
      store_url: o.storeUrl,
      backend_url: o.backendUrl,
    },
  }
}

export type ConnectionTest = { ok: true; realm: string; latency_ms: number } | { ok: false; realm: string | null; latency_ms: number; error: string }

/**
 * Fetches a token with a client of its own (the shared client may hold a cached token, which would prove nothing)
 * and times it. The error message is the client's: it names what to check, never a credential.
 */
export async function testConnection(service: PgsModuleService): Promise<ConnectionTest> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  let built
  try {
    built = buildGatewayClient(service.rawOptions)
  } catch (error) {
    return { ok: false, realm: null, latency_ms: 0, error: (error as Error).message }
  }
  try {
    await built.client.accessToken()
    return { ok: true, realm: built.options.realm, latency_ms: elapsed() }
  } catch (error) {
    return { ok: false, realm: built.options.realm, latency_ms: elapsed(), error: (error as Error).message }
  } finally {
    await built.client.close()
  }
}

export type EventSummary = {
  id: string
  event: string
  /** webhook: the gateway sent it; reconciliation: read from the status endpoint because no webhook came. */
  source: "webhook" | "reconciliation"
  /** Names the operation of the gateway's generic management events. */
  transaction_type: string | null
  transaction_id: string | null
  status: string | null
  processing_code: string | null
  amount: number | null
  /** The amount in major units ("10.50") and its currency, for the dashboard; null when the event has none. */
  money: { amount: string; currency_code: string } | null
  received_at: Date
  processed_at: Date | null
  outcome: string | null
  error: string | null
  attempts: number | null
}

/**
 * Webhook events about these transactions (as subject, parent or tokenized-from) or references, oldest first.
 * A summary only: the payload holds the customer's details, which the timeline does not need.
 */
export async function eventsFor(knex: Knex, input: { transaction_ids: string[]; references: string[] }): Promise<EventSummary[]> {
  const { transaction_ids: ids, references: refs } = input
  if (!ids.length && !refs.length) return []
  const rows: Array<Record<string, any>> = await knex(WEBHOOK_EVENT_TABLE)
    .select("*")
    .whereNull("deleted_at")
    .andWhere((q) => {
      if (ids.length) {
        q.orWhereIn("subject_id", ids)
          .orWhereRaw("payload->>'parent_id' = any(?)", [ids])
          .orWhereRaw("payload->>'transaction_id' = any(?)", [ids])
      }
      if (refs.length) q.orWhereIn("reference", refs)
    })
    .orderBy("received_at", "asc")
    .orderBy("id", "asc")
  return rows.map((r) => {
    const p = (fromStorableJson(r.payload) ?? {}) as Record<string, unknown>
    const str = (v: unknown) => (typeof v === "string" ? v : null)
    return {
      id: String(r.id),
      event: fromStorableText(String(r.event)),
      source: isGatewayRead(String(r.delivery_key)) ? "reconciliation" : "webhook",
      transaction_type: str(p.transaction_type),
      transaction_id: fromStorableText(r.subject_id ?? null),
      status: str(p.status),
      processing_code: str(p.processing_code),
      amount: typeof p.amount === "number" ? p.amount : null,
      money: moneyOf(p.amount, p.currency),
      received_at: r.received_at,
      processed_at: r.processed_at ?? null,
      outcome: r.outcome ?? null,
      error: r.error ?? null,
      attempts: typeof r.attempts === "number" ? r.attempts : null,
    }
  })
}

/** The 3-D Secure result the gateway last reported for a transaction (webhooks carry it; the status endpoint does not). */
export async function authenticationStatusOf(knex: Knex, transactionId: string): Promise<string | null> {
  const row = await knex(WEBHOOK_EVENT_TABLE)
    .select(knex.raw("payload->>'authentication_status' as authentication_status"))
    .where({ subject_id: transactionId })
    .whereNull("deleted_at")
    .whereRaw("payload->>'authentication_status' is not null")
    .orderBy("received_at", "desc")
    .first()
  return (row?.authentication_status as string | undefined) ?? null
}

function moneyOf(amount: unknown, currency: unknown): EventSummary["money"] {
  if (typeof amount !== "number" || typeof currency !== "string") return null
  try {
    return { amount: fromMinorUnits(amount, currency), currency_code: currency.toLowerCase() }
  } catch {
    return null // an unknown currency or a malformed amount: the timeline shows no amount
  }
}

/** Delivery keys of events read from the status endpoint (reconciliation) start so; a webhook's is a SHA-512 hex. */
const isGatewayRead = (deliveryKey: string) => deliveryKey.startsWith("reconciliation:")

/** Events a person must look at: flagged money (attention:*) and processing that failed after all its retries. */
export function eventNeedsAPerson(q: Knex.QueryBuilder): void {
  q.where("outcome", "like", "attention:%").orWhere((f) => f.where("outcome", "error").whereNull("processed_at").where("attempts", ">=", WEBHOOK_RETRY.maxAttempts))
}

/**
 * How many "Needs attention" items are open about an order: follow-ups a person must act on (by order or
 * transaction) and events about its transactions or references that were flagged or failed after their retries.
 */
export async function openAttentionFor(knex: Knex, input: { order_id: string; transaction_ids: string[]; references: string[] }): Promise<number> {
  const { transaction_ids: ids, references: refs } = input
  const [followUps] = await knex(FOLLOW_UP_TABLE)
    .whereNull("deleted_at")
    .where({ state: "needs_person" })
    .andWhere((q) => {
      q.where("order_id", input.order_id)
      if (ids.length) q.orWhereIn("transaction_id", ids)
    })
    .count({ n: "*" })
  if (!ids.length && !refs.length) return Number(followUps?.n ?? 0)
  const [events] = await knex(WEBHOOK_EVENT_TABLE)
    .whereNull("deleted_at")
    .andWhere((q) => {
      if (ids.length) q.orWhereIn("subject_id", ids)
      if (refs.length) q.orWhereIn("reference", refs)
    })
    .andWhere(eventNeedsAPerson)
    .count({ n: "*" })
  return Number(followUps?.n ?? 0) + Number(events?.n ?? 0)
}

/** A keyset page (keyset.ts) of the events a person must look at, newest first: on their own partial index. */
export async function eventsNeedingAPerson(knex: Knex, after: { at: string; id: string } | null, limit: number) {
  return newestFirst(knex(WEBHOOK_EVENT_TABLE).select("*").whereNull("deleted_at").where(eventNeedsAPerson), knex, "received_at", after, limit)
}

export async function countEventsNeedingAPerson(knex: Knex): Promise<number> {
  const [row] = await knex(WEBHOOK_EVENT_TABLE).whereNull("deleted_at").where(eventNeedsAPerson).count({ n: "*" })
  return Number(row?.n ?? 0)
}
