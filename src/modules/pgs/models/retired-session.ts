import { model } from "@medusajs/framework/utils"
import { NOT_SCOPED_TO_DELETED_AT } from "../plain-unique"

export const RETIRED_SESSION_TABLE = "pgs_retired_session"

/**
 * A payment session of ours that Medusa deleted (the cart changed, another method was chosen). Kept so that money
 * the gateway takes for it later is provably this store's, and can be given back (late refunds).
 */
export const PgsRetiredSession = model
  .define(
    { name: "PgsRetiredSession", tableName: RETIRED_SESSION_TABLE },
    {
      id: model.id({ prefix: "pgsrs" }).primaryKey(),
      session_id: model.text(),
      reference: model.text(),
      terminal_id: model.text().nullable(),
      transaction_id: model.text().nullable(),
      amount_minor: model.bigNumber(),
      currency_code: model.text(),
      /** The order whose payment collection held the session when Medusa deleted it, if any. */
      order_id: model.text().nullable(),
      retired_at: model.dateTime(),
    },
  )
  .indexes([{ name: "IDX_pgs_retired_session_session_id_unique", on: ["session_id"], unique: true, where: NOT_SCOPED_TO_DELETED_AT }])
