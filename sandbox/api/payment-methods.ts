/**
 * DELETE /api/payment-methods/{payment_method_id}: detach a stored card. Merchant credentials only, idempotent,
 * and the record stays readable as DELETED (the cards module refuses to charge it afterwards).
 */
import { requireMerchant } from "../core/auth"
import type { SandboxContext } from "../core/context"
import { invalid, json, ReplyError, type Reply, type SandboxRequest } from "../core/http"
import { nowIso } from "../core/ids"
import type { StoredCardRecord } from "../core/types"

/** Assumption: the record's fields are not shown; we show the card fields the tokenization event carries. */
export function paymentMethodView(card: StoredCardRecord) {
  return {
    id: card.id,
    status: card.status,
    type: card.type,
    customer_id: card.customer_id,
    card: {
      brand: card.card.brand,
      bin: card.card.bin,
      last_4: card.card.last_4,
      masked: card.card.masked,
      exp_month: card.card.exp_month,
      exp_year: card.card.exp_year,
    },
    created_at: card.created_at,
    deleted_at: card.deleted_at,
  }
}

/**
 * Assumption: "never with the public client key" — a call that presents only `x-client-key` (no bearer) is
 * authenticated as the merchant's frontend but lacks `payment_method:detach`, so it gets 403 with `{error}`;
 * an unknown client key is simply unauthenticated (401).
 */
function refuseClientKey(ctx: SandboxContext, req: SandboxRequest): void {
  const clientKey = req.headers["x-client-key"]
  if (req.headers.authorization || typeof clientKey !== "string") return
  if (ctx.merchantByClientKey(clientKey))
    throw new ReplyError(json(403, { error: "Forbidden: payment_method:detach needs merchant API credentials, not the public client key" }))
}

export async function deletePaymentMethod(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  refuseClientKey(ctx, req)
  const merchant = await requireMerchant(ctx, req)
  const id = req.params.payment_method_id
  const card = ctx.store.storedCards.get(id)
  // Another merchant's card is answered exactly like an unknown one, so ids cannot be probed.
  if (!card || card.merchant_id !== merchant.merchant_id)
    throw invalid(req, "payment_method_id", "payment method not found", [id])
  // Idempotent: deleting again returns the same DELETED record with its first deleted_at.
  if (card.status !== "DELETED") {
    card.status = "DELETED"
    card.deleted_at = nowIso()
  }
  return json(200, paymentMethodView(card))
}
