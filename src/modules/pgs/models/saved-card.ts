import { model } from "@medusajs/framework/utils"
import { NOT_SCOPED_TO_DELETED_AT } from "../plain-unique"
import { SAVED_CARD_TABLE } from "./table-names"

export const SAVED_CARD_STATUSES = ["ACTIVE", "DELETED"] as const

/** A card the gateway tokenized for a Medusa customer. Only brand, masked number and expiry: never the PAN. */
export const PgsSavedCard = model
  .define(
    { name: "PgsSavedCard", tableName: SAVED_CARD_TABLE },
    {
      id: model.id({ prefix: "pgscard" }).primaryKey(),
      customer_id: model.text(),
      gateway_customer_id: model.text(),
      payment_method_id: model.text(),
      brand: model.text().nullable(),
      masked: model.text().nullable(),
      last_4: model.text().nullable(),
      exp_month: model.number().nullable(),
      exp_year: model.number().nullable(),
      status: model.enum([...SAVED_CARD_STATUSES]).default("ACTIVE"),
      transaction_id: model.text().nullable(),
      /**
       * When the shopper agreed, at the checkout that saved it, that the shop may charge this card later without
       * them (tokenized for MERCHANT_INITIATED_TRANSACTION). Null: the card serves the shopper's own checkouts only.
       */
      merchant_consent_at: model.dateTime().nullable(),
      /** What the shopper was asked then: `{wording, locale, text}` (the wording's version, its language, the words). */
      merchant_consent: model.json().nullable(),
    },
  )
  .indexes([
    { name: "IDX_pgs_saved_card_payment_method_id_unique", on: ["payment_method_id"], unique: true, where: NOT_SCOPED_TO_DELETED_AT },
    { on: ["customer_id"] },
  ])
