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
import type { Transaction, Outcome } from "../../../../gateway"
import { looseQuery } from "../../../../lib/loose-query"
import { medusaPaymentView, type MedusaPaymentRow } from "./medusa-state"

type SessionRow = { id: string; provider_id: string; status: string; amount: unknown; currency_code: string; data: Record<string, unknown> | null; created_at?: Date }
type PaymentRow = MedusaPaymentRow & { id: string; payment_session_id?: string | null; provider_id: string; data: Record<string, unknown> | null }
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

/** `needs_attention`: open items about this order on the "Needs attention" page. */
export type OrderGatewayView = { order_id: string; payments: Array<Record<string, unknown> & { events: EventSummary[] }>; needs_attention: number; read_at: string }

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
      const recorded = { ...(session.data ?? {}), ...(payment?.data ?? {}) }
      const transactionId = typeof recorded.transaction_id === "string" ? recorded.transaction_id : null
      const { gateway, gateway_error } = transactionId ? await gatewayOf(pgs, knex, transactionId) : { gateway: null, gateway_error: null }
      const references = [session.id, recorded.reference].filter((r): r is string => typeof r === "string")
      const transactionIds = [transactionId, ...managementIds(recorded)].filter((id): id is string => !!id)
      const events = await eventsFor(knex, { transaction_ids: transactionIds, references })
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
        medusa: medusaPaymentView(session, payment),
        transaction_id: transactionId,
        recorded: pick(recorded),
        gateway,
        gateway_error,
        // Medusa's last known gateway status against the gateway's now; a difference is settled by the webhook.
        in_sync: gateway && typeof recorded.gateway_status === "string" ? recorded.gateway_status === gateway.status : null,
        events,
      })
    }
  }
  const needs_attention = await openAttentionFor(knex, { order_id: order.id, ...attention })
  return { order_id: order.id, payments, needs_attention, read_at: new Date().toISOString() }
}
