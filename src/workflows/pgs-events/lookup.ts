/** Reads of Medusa's payment records by the session a gateway reference points at. */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import { isPgsProviderId } from "../../payments/session-data"
import { readStoredSessionData, sessionFields } from "../../payments/stored-session-data"
import { sessionIdFromReference } from "../../payments/reference"
import type { Outcome, Transaction, TransactionEventPayload } from "../../gateway"
import type { EventContext, EventOutcome } from "./context"
import { looseQuery } from "../../lib/loose-query"
import { medusaAmountInMinorUnits, type Whole } from "../../lib/medusa-amount"
import { gatewaySums } from "../../lib/operation-shares"
import { exactAmount, sumOf } from "../medusa-operation-rows"

export type SessionView = {
  id: string
  provider_id: string
  status: string
  amount: unknown
  /** Medusa's exact amount (a taxed total may carry a fraction of a cent). */
  raw_amount?: unknown
  currency_code: string
  /** The session's fields, read from either stored form (stored-session-data.ts). */
  data: Record<string, unknown>
  /** The data as Medusa stored it: what a write through Medusa hands back to the provider. */
  stored_data: Record<string, unknown>
  payment_collection_id: string
}

export type PaymentView = {
  id: string
  currency_code: string
  /** Medusa's exact amounts (they may carry a fraction of a minor unit: lib/medusa-amount.ts). */
  raw_amount: unknown
  captured_at: string | Date | null
  canceled_at: string | Date | null
  payment_collection_id: string
  /** The provider's data (session data plus the captures, refunds and void it made, each under its key), read from its stored form. */
  data: Record<string, unknown> | null
  captures: Array<{ id: string; created_by: string | null; created_at: string | Date; raw_amount: unknown }>
  refunds: Array<{ id: string; metadata: Record<string, unknown> | null; created_at: string | Date; raw_amount: unknown }>
}

/** Our provider's session with this id, or null (unknown id, or another provider's session). */
export async function findPgsSession(container: MedusaContainer, sessionId: string): Promise<SessionView | null> {
  const { data } = await looseQuery(container).graph({
    entity: "payment_session",
    fields: ["id", "provider_id", "status", "amount", "raw_amount", "currency_code", "data", "payment_collection_id"],
    filters: { id: sessionId },
  })
  const session = data[0] as (Omit<SessionView, "stored_data"> & { data: Record<string, unknown> | null }) | undefined
  if (!session || !isPgsProviderId(session.provider_id)) return null
  const stored = session.data ?? {}
  return { ...session, data: sessionFields(stored), stored_data: stored }
}

export async function findPaymentForSession(container: MedusaContainer, sessionId: string): Promise<PaymentView | null> {
  const { data } = await looseQuery(container).graph({
    entity: "payment",
    fields: [
      ...["id", "currency_code", "raw_amount", "captured_at", "canceled_at", "payment_collection_id", "data"],
      ...["captures.id", "captures.created_by", "captures.created_at", "captures.raw_amount", "refunds.id", "refunds.metadata", "refunds.created_at", "refunds.raw_amount"],
    ],
    filters: { payment_session_id: sessionId },
  })
  const payment = data[0] as PaymentView | undefined
  // Strict: a damaged `internal` fails the event (retried, then shown) rather than skipping the check on its reference.
  return payment ? { ...payment, data: payment.data ? readStoredSessionData(payment.data) : null } : null
}

/** The id on the other side of a payment collection's link (order_payment_collection, cart_payment_collection). */
async function linkedTo(container: MedusaContainer, link: string, field: string, paymentCollectionId: string): Promise<string | null> {
  const { data } = await looseQuery(container).graph({ entity: link, fields: [field], filters: { payment_collection_id: paymentCollectionId } })
  const id = (data[0] as Record<string, unknown> | undefined)?.[field]
  return typeof id === "string" ? id : null
}

/** The order paid by this payment collection, if the cart became one. */
export const findOrderIdForCollection = (container: MedusaContainer, paymentCollectionId: string) =>
  linkedTo(container, "order_payment_collection", "order_id", paymentCollectionId)

/** The order's status ("pending", "completed", "canceled", …), or null when there is no such order. */
export async function orderStatus(container: MedusaContainer, orderId: string): Promise<string | null> {
  const { data } = await looseQuery(container).graph({ entity: "order", fields: ["id", "status"], filters: { id: orderId } })
  return (data[0] as { status?: string } | undefined)?.status ?? null
}

/** The cart whose payment collection this is (the cart lock's key), if any. */
export const findCartIdForCollection = (container: MedusaContainer, paymentCollectionId: string) =>
  linkedTo(container, "cart_payment_collection", "cart_id", paymentCollectionId)

/** The transaction is for the amount and currency the session asked for (the provider's data, minor units). */
export function sameMoney(session: SessionView, tx: { amount: number; currency: string }): boolean {
  const amount = session.data.amount_minor
  if (typeof amount === "number" && amount !== tx.amount) return false
  return session.currency_code.toLowerCase() === tx.currency.toLowerCase()
}

/** Our payment session a transaction event's reference names, or why the event is ignored. */
export async function sessionOfEvent(ctx: EventContext, payload: TransactionEventPayload): Promise<SessionView | EventOutcome> {
  const sessionId = sessionIdFromReference(payload.reference)
  if (!sessionId) return "ignored:foreign_reference"
  return (await findPgsSession(ctx.container, sessionId)) ?? "ignored:unknown_session"
}

/**
 * The two things a transaction event is about, each checked before anything is applied: our payment session (by
 * the reference we made; `known` when the caller has read it already) and the transaction as the gateway reads it
 * now (the body only names it). An outcome string says why the event is ignored.
 */
export async function sessionAndTransaction(
  ctx: EventContext,
  payload: TransactionEventPayload,
  known?: SessionView | EventOutcome,
): Promise<{ session: SessionView; tx: Transaction; outcome: Outcome } | EventOutcome> {
  const session = known ?? (await sessionOfEvent(ctx, payload))
  if (typeof session === "string") return session
  const read = await ctx.client.status.transaction(payload.id)
  if (!read) return "ignored:unknown_transaction"
  if (read.transaction.reference !== payload.reference) return "ignored:reference_mismatch"
  return { session, tx: read.transaction, outcome: read.outcome }
}

const summed = (rows: Array<{ raw_amount: unknown }>) => MathBN.convert(sumOf(rows.map(exactAmount)))

/**
 * A payment by Medusa's records, exactly: what can be captured (its amount) and what of it is; what can be refunded
 * (its captures) and what of it is; each with what the gateway has left of it, by the provider's records.
 */
export function leftOf(payment: PaymentView): { capture: Whole; refund: Whole } {
  const captured = summed(payment.captures).toFixed()
  const atGateway = gatewaySums(payment, payment.data ?? {})
  const total = MathBN.convert(exactAmount(payment)).toFixed()
  return {
    capture: { total, done: captured, restMinor: medusaAmountInMinorUnits(total, payment.currency_code) - atGateway.captured },
    refund: { total: captured, done: summed(payment.refunds).toFixed(), restMinor: atGateway.captured - atGateway.refunded },
  }
}
