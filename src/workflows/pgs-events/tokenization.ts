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
import { merchantConsent, type MerchantConsent } from "../../payments/merchant-consent"
import { sessionIdFromReference } from "../../payments/reference"
import { findPgsSession } from "./lookup"

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
  const consent = await merchantConsentOf(ctx, card.transaction_id)
  await ctx.pgs.createPgsSavedCards([
    {
      ...card,
      gateway_customer_id: card.gateway_customer_id,
      customer_id: customerId,
      status: "ACTIVE",
      merchant_consent_at: consent ? new Date(consent.at) : null,
      merchant_consent: consent ? { wording: consent.wording, locale: consent.locale, text: consent.text } : null,
    },
  ])
  return consent ? "applied:card_saved_for_merchant_charges" : "applied:card_saved"
}

/**
 * When the checkout that saved the card recorded the shopper's consent to later charges by the shop (option
 * savedCardConsent, asked in words), that consent; else null. The tokenization event does not say what the card was
 * tokenized for: the transaction it names leads (by our reference) to the payment session that asked for it.
 */
async function merchantConsentOf(ctx: EventContext, transactionId: string | null): Promise<MerchantConsent | null> {
  if (!transactionId || !ctx.pgs.payLinkSettings().savedCardConsent) return null
  // A failed read throws: the event is retried (webhook retry job) rather than the consent lost.
  const read = await ctx.client.status.transaction(transactionId)
  const sessionId = read ? sessionIdFromReference(read.transaction.reference) : null
  const session = sessionId ? await findPgsSession(ctx.container, sessionId) : null
  const data = session?.data
  const consent = merchantConsent.safeParse(data?.merchant_consent)
  if (data?.tokenize_for !== "MERCHANT_INITIATED_TRANSACTION" || !consent.success) return null
  return Number.isNaN(new Date(consent.data.at).getTime()) ? null : consent.data
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
