import { model } from "@medusajs/framework/utils"
import { NOT_SCOPED_TO_DELETED_AT } from "../plain-unique"
import { WEBHOOK_EVENT_TABLE } from "./table-names"

/**
 * One row per distinct webhook delivery. `delivery_key` is the SHA-512 hex of the raw body: gateway retries
 * send the same bytes, so the unique index turns a retry (or a concurrent duplicate) into a no-op.
 */
export const PgsWebhookEvent = model
  .define(
    { name: "PgsWebhookEvent", tableName: WEBHOOK_EVENT_TABLE },
    {
      id: model.id({ prefix: "pgswh" }).primaryKey(),
      delivery_key: model.text(),
      event: model.text(),
      subject_id: model.text().nullable(),
      reference: model.text().nullable(),
      payload: model.json(),
      received_at: model.dateTime(),
      processed_at: model.dateTime().nullable(),
      outcome: model.text().nullable(),
      error: model.text().nullable(),
      // Processing runs that ended in an error, and when the retry job may run it again (null: not planned).
      attempts: model.number().default(0),
      next_attempt_at: model.dateTime().nullable(),
    },
  )
  .indexes([
    // Plain, not partial: not scoped to deleted_at, so a soft-deleted row still blocks a replay and ON CONFLICT can use it.
    { name: "IDX_pgs_webhook_event_delivery_key_unique", on: ["delivery_key"], unique: true, where: NOT_SCOPED_TO_DELETED_AT },
    { on: ["subject_id"] },
    // The retry job's scan: only events without a final outcome, a small share of the log.
    { name: "IDX_pgs_webhook_event_unfinished", on: ["received_at"], where: "processed_at IS NULL" },
  ])
