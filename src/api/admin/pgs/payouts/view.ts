import { payoutAmountMinor, type PgsPayoutRow } from "../../../../modules/pgs/service"
import { fromMinorUnits } from "../../../../gateway"

/** The stored amount in its currency's decimals; as stored should a row not convert (one bad row must not fail a page). */
function exactAmount(p: PgsPayoutRow): string {
  try {
    return fromMinorUnits(payoutAmountMinor(p), p.currency_code)
  } catch {
    return String(p.raw_amount?.value ?? p.amount)
  }
}

/**
 * What the dashboard sees of a payout: the masked account or card only (the row holds nothing more), never the
 * beneficiary fingerprint or the gateway's raw answer. The amount is the exact decimal string in the currency's own
 * decimals ("1250.50"): the column's number would drop a trailing zero, and a cent beyond 2^53 minor units.
 */
export const payoutView = (p: PgsPayoutRow) => ({
  id: p.id,
  reference: p.reference,
  status: p.status,
  method: p.method,
  transaction_type: p.transaction_type,
  terminal_id: p.terminal_id,
  amount: exactAmount(p),
  currency_code: p.currency_code,
  description: p.description,
  masked: p.masked,
  beneficiary_name: p.beneficiary_name,
  card_brand: p.card_brand,
  transaction_id: p.transaction_id,
  processing_code: p.processing_code,
  response_message: p.response_message,
  errors: p.errors,
  note: p.note,
  metadata: p.metadata,
  created_by: p.created_by,
  created_at: p.created_at,
  updated_at: p.updated_at,
})
