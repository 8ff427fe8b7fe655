/**
 * A card tokenized at the gateway (either payload form): store it as the Medusa customer's saved card. The
 * gateway customer id leads to the customer through the payment module's account holder (external_id) and its
 * customer link. Brand, masked number and expiry only; an unknown customer is recorded and left alone.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import type { WebhookEvent } from "../../gateway"
import { isPgsProviderId } from "../../payments/session-data"
import { findSavedCard } from "../../modules/pgs/queries"
import type { EventContext, EventOutcome } from "./context"
import { looseQuery } from "../../lib/loose-query"

type TokenizationPayload = Extract<WebhookEvent, { event: "tokenization-webhook:payment-method:tokenized" }>["payload"]

export type TokenizedCard = {
  payment_method_id: string
  gateway_customer_id: string | null
  brand: string | null
  masked: string | null
  last_4: string | null
  exp_month: number | null
  exp_year: number | null
  transaction_id: string | null
}

const toInt = (v: number | string | null | undefined) => {
  if (v === null || v === undefined || v === "") return null
  const n = Number(v)
  return Number.isInteger(n) ? n : null
}

/** One shape for the documented nested payload and the flat `data` sample. */
export function normalizeTokenization(p: TokenizationPayload): TokenizedCard {
  if ("data" in p) {
    const d = p.data
    return {
      payment_method_id: d.payment_method_id,
      gateway_customer_id: d.customer_id ?? null,
      brand: d.card_brand ?? null,
      masked: d.card_masked ?? null,
      last_4: d.card_last_4 ?? null,
      exp_month: toInt(d.card_exp_month),
      exp_year: toInt(d.card_exp_year),
      transaction_id: d.transaction_id ?? null,
    }
  }
  const card = p.payment_method.card
  return {
    payment_method_id: p.payment_method.id,
    gateway_customer_id: p.customer?.id ?? null,
    brand: card?.brand ?? null,
    masked: card?.masked ?? null,
    last_4: card?.last_4 ?? null,
    exp_month: card?.exp_month ?? null,
    exp_year: card?.exp_year ?? null,
    transaction_id: p.transaction_id,
  }
}

export async function handleTokenization(ctx: EventContext, payload: TokenizationPayload): Promise<EventOutcome> {
  const card = normalizeTokenization(payload)
  if (!card.gateway_customer_id) return "ignored:no_gateway_customer"
  const customerId = await customerForGatewayCustomer(ctx, card.gateway_customer_id)
  if (!customerId) return "ignored:unknown_gateway_customer"

  const knex = ctx.container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const existing = await findSavedCard(knex, { payment_method_id: card.payment_method_id })
  if (existing) {
    if (existing.customer_id !== customerId) return "ignored:card_of_another_customer"
    return "ignored:already_saved"
  }
  await ctx.pgs.createPgsSavedCards([{ ...card, gateway_customer_id: card.gateway_customer_id, customer_id: customerId, status: "ACTIVE" }])
  return "applied:card_saved"
}

async function customerForGatewayCustomer(ctx: EventContext, gatewayCustomerId: string): Promise<string | null> {
  const query = looseQuery(ctx.container)
  const found = await query.graph({ entity: "account_holder", fields: ["id", "provider_id"], filters: { external_id: gatewayCustomerId } })
  const holders = (found.data as Array<{ id: string; provider_id: string }>).filter((h) => isPgsProviderId(h.provider_id))
  if (!holders.length) return null
  const { data } = await query.graph({
    entity: "customer_account_holder",
    fields: ["customer_id"],
    filters: { account_holder_id: holders.map((h) => h.id) },
  })
  return (data[0] as { customer_id?: string } | undefined)?.customer_id ?? null
}
