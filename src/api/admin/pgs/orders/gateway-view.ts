/**
 * The gateway's side of an order's PGS payments, for the order widget: per payment session, what Medusa recorded
 * (without `sealed`, `integrity` or the client key), what the gateway's status endpoint says now, and the webhook
 * events received about it (oldest first).
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys, MedusaError } from "@medusajs/framework/utils"
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { PGS_MODULE } from "../../../../modules/pgs"
import { authenticationStatusOf, eventsFor, openAttentionFor, type EventSummary } from "../../../../modules/pgs/admin-queries"
import type PgsModuleService from "../../../../modules/pgs/service"
import { fromMinorUnits, toMinorUnits, type Transaction, type Outcome } from "../../../../gateway"
import { looseQuery } from "../../../../lib/loose-query"
import { majorAmount, medusaPaymentView, type MedusaPaymentRow } from "./medusa-state"
import { EXTERNAL_REFUND_METADATA_KEY } from "../../../../modules/pgs/medusa-tables"
import { actorsOf, type Actor, type OperationRow } from "./actors"
import { sessionFields, StoredDataTooNewError } from "../../../../payments/stored-session-data"
import { followUpByKey } from "../../../../modules/pgs/follow-ups"
import { unconfirmedOperationKey } from "../../../../payments/lost-answers"
import { isSingleStep, type GatewayTransactionType } from "../../../../payments/session-data"
import { RECONCILE } from "../../../../workflows/reconcile/policy"

type SessionRow = { id: string; provider_id: string; status: string; amount: unknown; currency_code: string; data: Record<string, unknown> | null; created_at?: Date }
type OperationRecord = OperationRow & { amount?: unknown; raw_amount?: unknown; created_at?: Date | string; note?: string | null; refund_reason?: { label?: string | null } | null }
type PaymentRow = Omit<MedusaPaymentRow, "captures" | "refunds"> & {
  id: string
  payment_session_id?: string | null
  provider_id: string
  data: Record<string, unknown> | null
  captures?: OperationRecord[] | null
  refunds?: OperationRecord[] | null
}
type ManagementRecord = { key?: unknown; transaction_id?: unknown; final_capture?: unknown; amount_minor?: unknown; kind?: unknown }
type OrderRow = { id: string; payment_collections?: Array<{ id: string; payment_sessions?: SessionRow[]; payments?: PaymentRow[] }> }

/** Session data fields the dashboard may see; everything else (sealed blob, integrity HMAC, client key, browser data) stays out. */
const RECORDED_FIELDS = [
  "integration", "terminal_id", "transaction_type", "reference", "attempt", "currency_code", "amount_minor", "transaction_id",
  "gateway_status", "error", "payment_method", "captures", "refunds", "void", "method", "hosted_page_id", "instalments", "locale",
] as const

const pick = (data: Record<string, unknown> | null | undefined) =>
  Object.fromEntries(RECORDED_FIELDS.filter((k) => data?.[k] !== undefined).map((k) => [k, data![k]]))

export type GatewayTransactionView = ReturnType<typeof transactionView>

function transactionView(t: Transaction, outcome: Outcome, authenticationStatus: string | null) {
  const retry = t.data?.retry_options ?? null
  return {
    id: t.id,
    status: t.status,
    approved: t.approved,
    pending: t.pending,
    transaction_type: t.transaction_type,
    terminal_id: t.terminal_id,
    reference: t.reference,
    amount: t.amount,
    currency: t.currency,
    processing_code: t.processing_code ?? null,
    response_message: t.response_message ?? null,
    outcome: { name: outcome.name, message: outcome.merchantMessage },
    three_ds: authenticationStatus,
    brand: t.payment_method?.brand ?? null,
    masked: t.payment_method?.masked ?? null,
    payment_method_type: t.payment_method?.type ?? null,
    approval_code: t.processing_result?.approval_code ?? null,
    retry: retry ? { count: retry.retry_count ?? null, status: retry.status ?? null, provider: retry.payment_provider_id ?? null } : null,
  }
}

async function gatewayOf(pgs: PgsModuleService, knex: Knex, transactionId: string) {
  try {
    const found = await pgs.gateway().status.transaction(transactionId)
    if (!found) return { gateway: null, gateway_error: "The gateway does not know this transaction" }
    return { gateway: transactionView(found.transaction, found.outcome, await authenticationStatusOf(knex, transactionId)), gateway_error: null }
  } catch (error) {
    return { gateway: null, gateway_error: (error as Error).message }
  }
}

const managementIds = (data: Record<string, unknown>) =>
  ["captures", "refunds"].flatMap((k) => (Array.isArray(data[k]) ? (data[k] as Array<{ transaction_id?: unknown }>) : []))
    .map((r) => r.transaction_id)
    .filter((id): id is string => typeof id === "string")

/**
 * Medusa's captures and refunds of a payment, oldest first, each with who made it (actors.ts) and the gateway
 * transaction the provider recorded for it (session data `captures`/`refunds`, keyed by the row's id).
 */
function operationsOf(payment: PaymentRow | null, recorded: Record<string, unknown>, currency: string, actors: Map<string, Actor>) {
  if (!payment) return []
  const records = (k: "captures" | "refunds") => (Array.isArray(recorded[k]) ? (recorded[k] as ManagementRecord[]) : [])
  const rows = [
    ...(payment.captures ?? []).map((row) => ({ row, kind: "capture" as const, record: records("captures").find((r) => r.key === row.id) })),
    ...(payment.refunds ?? []).map((row) => ({ row, kind: "refund" as const, record: records("refunds").find((r) => r.key === row.id) })),
  ]
  // A single-step payment was taken at authorization: its capture row needs no record of its own.
  const takenAtAuthorization = isSingleStep(String(recorded.transaction_type ?? "AUTHORIZE") as GatewayTransactionType)
  return rows
    .map(({ row, kind, record }) => {
      const transaction_id = typeof record?.transaction_id === "string" ? record.transaction_id : externalTransactionOf(row)
      return {
        id: row.id,
        kind,
        // What the gateway was sent for it when the plugin made it (a taxed row's share: 10.11 of three 10.115 refunds), else Medusa's amount.
        amount: typeof record?.amount_minor === "number" ? fromMinorUnits(record.amount_minor, currency) : majorAmount(row, currency),
        created_at: row.created_at ? new Date(row.created_at).toISOString() : null,
        transaction_id,
        final_capture: record?.final_capture === true,
        nothing_sent: record?.kind === "nothing_sent",
        // Medusa wrote the row but the provider never recorded the gateway's answer: a process stopped in the middle
        // (or the call is still running). Reconciliation settles it (workflows/reconcile/unfinished-operations.ts).
        unconfirmed: !record && !transaction_id && !(kind === "capture" && takenAtAuthorization) && !payment.canceled_at,
        // What the admin gave a refund in Medusa's form or ours, as Medusa's Payments section shows it.
        reason: row.refund_reason?.label ?? null,
        note: row.note ?? null,
        by: actors.get(row.id)!,
      }
    })
    .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)))
}

/**
 * Where Needs attention stands on each unconfirmed operation (reconciliation lists one the gateway has no record of):
 * "open", "closed" (a person dealt with it), null (not listed yet), or "unwatched": older than the days reconciliation
 * looks back (its worker was down that long), so nothing will list it. Read only for those: most orders have none.
 */
async function withUnconfirmedItems(knex: Knex, operations: ReturnType<typeof operationsOf>, now = new Date()) {
  const watchedSince = now.getTime() - RECONCILE.watchDays * 86_400_000
  return Promise.all(
    operations.map(async (o) => {
      if (!o.unconfirmed) return { ...o, unconfirmed_item: null }
      const item = await followUpByKey(knex, unconfirmedOperationKey(o.kind, o.id))
      if (item) return { ...o, unconfirmed_item: item.state === "done" ? ("closed" as const) : ("open" as const) }
      return { ...o, unconfirmed_item: o.created_at && Date.parse(o.created_at) <= watchedSince ? ("unwatched" as const) : null }
    }),
  )
}

type Operation = Awaited<ReturnType<typeof withUnconfirmedItems>>[number]

/**
 * What the gateway confirmed of Medusa's captures and refunds (major units), beside Medusa's own sums: a payment
 * refunded in full still has an APPROVED authorization at the gateway, and this says what happened after it.
 */
function confirmedByGateway(operations: Operation[], currency: string) {
  const sum = (kind: Operation["kind"]) => {
    const minor = operations.filter((o) => o.kind === kind && !o.unconfirmed).reduce((total, o) => total + toMinorUnits(o.amount, currency), 0)
    return fromMinorUnits(minor, currency)
  }
  return { captured: sum("capture"), refunded: sum("refund"), unconfirmed: operations.filter((o) => o.unconfirmed).length }
}

/** The gateway transaction of an operation made in the gateway's dashboard (recorded by the webhook workflow). */
function externalTransactionOf(row: OperationRecord): string | null {
  const refunded = row.metadata?.[EXTERNAL_REFUND_METADATA_KEY]
  if (typeof refunded === "string") return refunded
  return row.created_by?.startsWith("pgs:") ? row.created_by.slice("pgs:".length) : null
}

/** null where the payment's currency has no known exponent (the sums would not be exact). */
function safely<T>(read: () => T): T | null {
  try {
    return read()
  } catch {
    return null
  }
}

/** `needs_attention`: open items about this order on the "Needs attention" page. */
export type OrderGatewayView = { order_id: string; payments: Array<Record<string, unknown> & { events: Array<EventSummary & { by: Actor | null }> }>; needs_attention: number; read_at: string }

export async function orderGatewayView(scope: MedusaContainer, orderId: string): Promise<OrderGatewayView> {
  const query = looseQuery(scope)
  const { data } = await query.graph({
    entity: "order",
    fields: [
      "id",
      "payment_collections.id",
      "payment_collections.payment_sessions.*",
      "payment_collections.payments.*",
      "payment_collections.payments.captures.*",
      "payment_collections.payments.refunds.*",
      "payment_collections.payments.refunds.refund_reason.label",
    ],
    filters: { id: orderId },
  })
  const order = data[0] as OrderRow | undefined
  if (!order) throw new MedusaError(MedusaError.Types.NOT_FOUND, `Order ${orderId} was not found`)
  const pgs = scope.resolve<PgsModuleService>(PGS_MODULE)
  const knex = scope.resolve<Knex>(ContainerRegistrationKeys.PG_CONNECTION)

  const payments = []
  const attention = { transaction_ids: [] as string[], references: [] as string[] }
  for (const collection of order.payment_collections ?? []) {
    for (const session of collection.payment_sessions ?? []) {
      if (!session.provider_id?.startsWith("pp_pgs")) continue
      const payment = (collection.payments ?? []).find((p) => p.payment_session_id === session.id) ?? null
      // The payment's data is the session's as authorized, then kept up to date with captures and refunds.
      const recorded = recordedFields(session.data, payment?.data)
      let transactionId = typeof recorded.transaction_id === "string" ? recorded.transaction_id : null
      const references = [session.id, recorded.reference].filter((r): r is string => typeof r === "string")
      const transactionIds = [transactionId, ...managementIds(recorded)].filter((id): id is string => !!id)
      const actors = await actorsOf(scope, [...(payment?.captures ?? []), ...(payment?.refunds ?? [])])
      const operations = await withUnconfirmedItems(knex, operationsOf(payment, recorded, session.currency_code, actors))
      const read = await eventsFor(knex, { transaction_ids: transactionIds, references })
      // The shopper paid after Medusa stopped wanting this session (the order canceled, or paid another way): no
      // Medusa payment holds that transaction, and the plugin gave it back (late-money.ts). Shown with its gateway view.
      const lateMoney = transactionId ? null : (read.find((e) => /^applied:late_money_/.test(e.outcome ?? "") && e.transaction_id) ?? null)
      if (lateMoney) transactionId = lateMoney.transaction_id
      const { gateway, gateway_error } = transactionId ? await gatewayOf(pgs, knex, transactionId) : { gateway: null, gateway_error: null }
      // A management event names the operation Medusa made: say who made it (not "this dashboard", a guess).
      const events = read.map((e) => {
        const operation = operations.find((o) => o.transaction_id && o.transaction_id === e.transaction_id)
        return { ...e, by: operation?.by ?? null }
      })
      attention.transaction_ids.push(...transactionIds)
      attention.references.push(...references)
      payments.push({
        payment_session_id: session.id,
        payment_id: payment?.id ?? null,
        provider_id: session.provider_id,
        session_status: session.status,
        amount: session.amount,
        currency_code: session.currency_code,
        captured_at: payment?.captured_at ?? null,
        canceled_at: payment?.canceled_at ?? null,
        // What Medusa holds now (captured, refunded, …), with amounts: the session's status stops at "authorized".
        medusa: medusaPaymentView(session, payment, recorded),
        transaction_id: transactionId,
        // "void" or "refund": the money of `transaction_id` was paid late and given back automatically.
        late_money_given_back: lateMoney ? (lateMoney.outcome!.endsWith("refund") ? "refund" : "void") : null,
        recorded: pick(recorded),
        gateway,
        gateway_error,
        // Medusa's last known gateway status against the gateway's now; a difference is settled by the webhook.
        in_sync: gateway && typeof recorded.gateway_status === "string" ? recorded.gateway_status === gateway.status : null,
        operations,
        confirmed_by_gateway: safely(() => confirmedByGateway(operations, session.currency_code)),
        events,
      })
    }
  }
  const needs_attention = await openAttentionFor(knex, { order_id: order.id, ...attention })
  return { order_id: order.id, payments, needs_attention, read_at: new Date().toISOString() }
}

/** A session's fields, the payment's over them; data a newer release wrote is a 409 in words, not a 500. */
function recordedFields(sessionData: unknown, paymentData: unknown): Record<string, unknown> {
  try {
    return { ...sessionFields(sessionData), ...(paymentData ? sessionFields(paymentData) : {}) }
  } catch (error) {
    if (error instanceof StoredDataTooNewError) throw new MedusaError(MedusaError.Types.CONFLICT, error.message)
    throw error
  }
}
