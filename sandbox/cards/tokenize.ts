/**
 * Saving a card on approval (tokenization.save_card_for_future_payments): a stored card in the store, its id in
 * `result.payment_method.token`, and the tokenization webhook in the form the sandbox is set to send.
 */
import { TOKENIZATION_EVENT } from "../schemas"
import type { SandboxContext } from "../core/context"
import { newId, nowIso } from "../core/ids"
import type { StoredCardRecord, TransactionRecord } from "../core/types"
import { brandOf, maskPan } from "./card-view"
import type { PlainCard } from "./credentials"

export function storeCard(
  ctx: SandboxContext,
  tx: TransactionRecord,
  card: PlainCard,
  tokenizeFor: StoredCardRecord["tokenize_for"],
): StoredCardRecord {
  const stored: StoredCardRecord = {
    id: newId("pm"),
    merchant_id: tx.merchant_id,
    customer_id: tx.customer?.id ?? null,
    status: "ACTIVE",
    type: "card",
    tokenize_for: tokenizeFor,
    card: {
      number: card.number,
      // Only VISA and MASTERCARD are issued by the simulator; anything else is shown as UNKNOWN.
      brand: brandOf(card.number) ?? "UNKNOWN",
      bin: card.number.slice(0, 6),
      last_4: card.number.slice(-4),
      masked: maskPan(card.number),
      exp_month: card.expiration_month,
      exp_year: card.expiration_year,
    },
    transaction_id: tx.id,
    created_at: nowIso(),
    deleted_at: null,
  }
  ctx.store.storedCards.set(stored.id, stored)
  return stored
}

export function tokenizationPayload(ctx: SandboxContext, stored: StoredCardRecord, tx: TransactionRecord): unknown {
  const customer = stored.customer_id ? ctx.store.customers.get(stored.customer_id) : undefined
  if (ctx.options.tokenizationPayload === "flat")
    return {
      data: {
        payment_method_id: stored.id,
        payment_method_type: stored.type,
        card_brand: stored.card.brand,
        card_bin: stored.card.bin,
        card_last_4: stored.card.last_4,
        card_masked: stored.card.masked,
        card_exp_month: stored.card.exp_month,
        card_exp_year: stored.card.exp_year,
        customer_id: stored.customer_id,
        transaction_id: tx.id,
      },
    }
  return {
    payment_method: {
      id: stored.id,
      type: stored.type,
      card: {
        brand: stored.card.brand,
        last_4: stored.card.last_4,
        bin: stored.card.bin,
        masked: stored.card.masked,
        exp_month: stored.card.exp_month,
        exp_year: stored.card.exp_year,
      },
    },
    transaction_id: tx.id,
    customer: stored.customer_id
      ? {
          id: stored.customer_id,
          first_name: customer?.first_name ?? null,
          last_name: customer?.last_name ?? null,
          email: customer?.email ?? null,
        }
      : null,
    merchant_id: stored.merchant_id,
    created_at: stored.created_at,
  }
}

export function sendTokenizationWebhook(ctx: SandboxContext, stored: StoredCardRecord, tx: TransactionRecord): void {
  ctx.webhooks.send(stored.merchant_id, stored.id, { event: TOKENIZATION_EVENT, payload: tokenizationPayload(ctx, stored, tx) })
}
