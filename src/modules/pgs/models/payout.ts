import { model } from "@medusajs/framework/utils"
import { NOT_SCOPED_TO_DELETED_AT } from "../plain-unique"

export const PAYOUT_TABLE = "pgs_payout"

/**
 * CREATING: recorded, the gateway has not answered yet. PENDING: the gateway is working on it, or its answer was
 * lost (see `note`); a retry with the same reference or the webhook settles it. FAILED: the gateway refused the
 * request without creating a transaction (nothing was paid); a retry sends the same request again. The rest are
 * the gateway's final statuses and never change.
 */
export const PAYOUT_STATUSES = ["CREATING", "PENDING", "FAILED", "APPROVED", "DECLINED", "CANCELED", "INVALID", "SESSION_EXPIRED"] as const
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number]
export const FINAL_PAYOUT_STATUSES: ReadonlySet<PayoutStatus> = new Set(["APPROVED", "DECLINED", "CANCELED", "INVALID", "SESSION_EXPIRED"])

/** bank_account: POST /api/transactions/payout. card: authorize with transaction_type OCT or PAYOUT. */
export const PAYOUT_METHODS = ["bank_account", "card"] as const
export const PAYOUT_TRANSACTION_TYPES = ["PAYOUT", "OCT"] as const

/**
 * A payout sent (or being sent) through the gateway, one row per reference. Only the masked account or card is
 * kept; `beneficiary_fingerprint` (a keyed HMAC) lets a retry prove it names the same beneficiary without
 * storing the number.
 */
export const PgsPayout = model
  .define(
    { name: "PgsPayout", tableName: PAYOUT_TABLE },
    {
      id: model.id({ prefix: "pgspo" }).primaryKey(),
      reference: model.text(),
      terminal_id: model.text(),
      method: model.enum([...PAYOUT_METHODS]),
      transaction_type: model.enum([...PAYOUT_TRANSACTION_TYPES]),
      amount: model.bigNumber(),
      currency_code: model.text(),
      description: model.text(),
      status: model.enum([...PAYOUT_STATUSES]).default("CREATING"),
      masked: model.text().nullable(),
      beneficiary_name: model.text().nullable(),
      card_brand: model.text().nullable(),
      beneficiary_fingerprint: model.text(),
      transaction_id: model.text().nullable(),
      processing_code: model.text().nullable(),
      response_message: model.text().nullable(),
      errors: model.json().nullable(),
      note: model.text().nullable(),
      metadata: model.json().nullable(),
      created_by: model.text().nullable(),
    },
  )
  .indexes([
    // Plain, not partial: one row per reference for good, so two concurrent requests cannot both create one.
    { name: "IDX_pgs_payout_reference_unique", on: ["reference"], unique: true, where: NOT_SCOPED_TO_DELETED_AT },
    { on: ["transaction_id"] },
    { on: ["status"] },
  ])
