/**
 * The cart's card-fields session a checkout opened before and nobody paid in: answered again when the widget asks for
 * the card's session with `reuse` (a reload of the checkout, the card row opened again), instead of a new gateway
 * session that retires it. Decided here, on the server, from the stored data the store answers never show (the
 * transaction id): only a pending session with no transaction, whose amount is still the collection's, made for the
 * same customer (`customerId`: the cart's owner when logged in, else nobody) — a guest never gets a session made
 * with a customer's account holder, nor a customer one made without it.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { MathBN } from "@medusajs/framework/utils"
import { looseQuery } from "../../../../../../lib/loose-query"

type Stored = { id: string; provider_id: string; status: string; amount: number; data: Record<string, unknown> | null; context?: { customer?: { id?: string } | null } | null }

export async function reusableSession(scope: MedusaContainer, collectionId: string, providerId: string, customerId: string | undefined): Promise<Stored | null> {
  const { data } = await looseQuery(scope).graph({
    entity: "payment_collection",
    fields: ["amount", "payment_sessions.id", "payment_sessions.provider_id", "payment_sessions.status", "payment_sessions.amount", "payment_sessions.data", "payment_sessions.context"],
    filters: { id: collectionId },
  })
  const collection = data[0] as { amount: number; payment_sessions?: Stored[] | null } | undefined
  const s = collection?.payment_sessions?.find((p) => p.provider_id === providerId && p.status === "pending")
  const d = s?.data ?? {}
  if (!s || d.integration !== "embedded_fields" || d.gateway_status || d.transaction_id || !MathBN.eq(s.amount, collection!.amount)) return null
  return s.context?.customer?.id === customerId ? s : null
}
