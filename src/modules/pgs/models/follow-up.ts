import { model } from "@medusajs/framework/utils"
import { NOT_SCOPED_TO_DELETED_AT } from "../plain-unique"

export const FOLLOW_UP_TABLE = "pgs_follow_up"

/**
 * What the plugin did or watches after the shopper left, for the shop admin's "Needs attention" page:
 * - check: a gateway transaction not final yet, re-read from the status endpoint with backoff (reconciliation);
 * - reconciled: a final status found by reconciliation and applied through the webhook path;
 * - late_refund: money taken for a session Medusa retired or an order already canceled, given back once;
 * - gave_up: an order whose redirect payment the shopper abandoned, canceled after the configured time;
 * - unknown_management: a capture or refund whose answer was lost (the status endpoint cannot prove it);
 * - stuck: a transaction still not final after days of checks;
 * - webhooks_refused: deliveries whose signature the configured key does not verify (one row, `checks` counts them);
 * - fulfillment_capture: a capture on fulfillment (key "fulfillment-capture:<fulfillment id>", so one per fulfillment);
 * - void_not_made: a void Medusa asked for that the gateway declined or refused, or that could not be sent (key as a
 *   lost void answer's, "manage:<payment id>");
 * - refund_not_made: money a canceled order's payment kept because Medusa's refund at the cancel did not go through
 *   (key "cancel-refund:<payment id>");
 * - refund_failed: a refund of an order's payment that the gateway declined or refused, that could not be sent, or
 *   whose answer was lost (key "refund-failed:<Medusa's refund id>"), watched until reconciliation knows whether an
 *   order cancel asked for it (then it is a refund_not_made), so that listing does not hang on the order.canceled
 *   event alone; a person's only when that listing keeps failing.
 * - terminal_refused: a terminal the gateway refuses (unknown, inactive, not accepting, or the merchant inactive), on
 *   which every payment fails (key "terminal-refused:<terminal id>", `checks` counts the refused payment attempts); closed when
 *   a terminal setting that reaches it changes, opened again by the next refusal.
 * - card_testing: clients refused by the card-testing guard (one row, key "card-testing", `checks` counts refused
 *   requests; payments/card-testing/alert.ts), open until a person marks it handled.
 * - held_after_cancel: the part of a canceled order's card authorization never captured, which the gateway cannot
 *   release once a capture took from it (key "held-after-cancel:<payment id>"; workflows/held-after-cancel.ts).
 * - amount_drift: the gateway was sent more for a payment's captures or refunds than Medusa's records of them round
 *   to (key "drift:<capture|refund>:<transaction id>"; payments/amount-drift.ts).
 */
/** A failed refund's listing tried this many times in vain (about an hour of reconciliation runs) goes to a person. */
export const FAILED_REFUND_TRIES_BEFORE_TELLING = 12

export const FOLLOW_UP_KINDS = ["check", "reconciled", "late_refund", "gave_up", "unknown_management", "stuck", "webhooks_refused", "fulfillment_capture", "void_not_made", "refund_not_made", "refund_failed", "terminal_refused", "card_testing", "held_after_cancel", "amount_drift"] as const
export type FollowUpKind = (typeof FOLLOW_UP_KINDS)[number]

/** watching: the plugin is on it. done: nothing left to do (kept as a record). needs_person: a person must act. */
export const FOLLOW_UP_STATES = ["watching", "done", "needs_person"] as const
export type FollowUpState = (typeof FOLLOW_UP_STATES)[number]

export const PgsFollowUp = model
  .define(
    { name: "PgsFollowUp", tableName: FOLLOW_UP_TABLE },
    {
      id: model.id({ prefix: "pgsfu" }).primaryKey(),
      // One row per thing followed up ("refund:<transaction id>", "check:<transaction id>", "give-up:<order id>"):
      // the unique index is what makes an automatic refund happen once, whichever process gets there first.
      key: model.text(),
      kind: model.enum([...FOLLOW_UP_KINDS]),
      state: model.enum([...FOLLOW_UP_STATES]).default("watching"),
      transaction_id: model.text().nullable(),
      reference: model.text().nullable(),
      order_id: model.text().nullable(),
      amount_minor: model.bigNumber().nullable(),
      currency_code: model.text().nullable(),
      // A plain sentence for the shop admin.
      note: model.text().nullable(),
      checks: model.number().default(0),
      next_check_at: model.dateTime().nullable(),
      last_status: model.text().nullable(),
      resolved_at: model.dateTime().nullable(),
    },
  )
  .indexes([
    { name: "IDX_pgs_follow_up_key_unique", on: ["key"], unique: true, where: NOT_SCOPED_TO_DELETED_AT },
    { name: "IDX_pgs_follow_up_open", on: ["next_check_at"], where: "state = 'watching'" },
  ])
