import { model } from "@medusajs/framework/utils"
import { TERMINAL_SETTING_TABLE } from "./table-names"

export const TRANSACTION_TYPES = ["AUTHORIZE", "PURCHASE"] as const
export const INTEGRATION_TYPES = ["EMBEDDED_FIELDS", "HOSTED_PAYMENT_PAGE", "DIRECT_API"] as const

/**
 * Which gateway terminal serves which currencies/regions, and how. The row with `is_default` is used when no
 * currency/region row matches. Empty `region_ids` means "any region".
 */
export const PgsTerminalSetting = model
  .define(
    { name: "PgsTerminalSetting", tableName: TERMINAL_SETTING_TABLE },
    {
      id: model.id({ prefix: "pgsterm" }).primaryKey(),
      terminal_id: model.text(),
      label: model.text().nullable(),
      currency_codes: model.json().default([] as unknown as Record<string, unknown>),
      region_ids: model.json().default([] as unknown as Record<string, unknown>),
      transaction_type: model.enum([...TRANSACTION_TYPES]).default("AUTHORIZE"),
      integration_type: model.enum([...INTEGRATION_TYPES]).default("EMBEDDED_FIELDS"),
      notification_url: model.text().nullable(),
      instalments: model.boolean().default(false),
      locale: model.text().nullable(),
      css_variables: model.json().nullable(),
      /** Provider identifiers (e.g. "pgs-upi") this terminal takes; null means every method. */
      enabled_methods: model.json().nullable(),
      /** Hosted payment page options: { skip_three_ds?, cvv_less?, number_of_instalments? }. */
      hosted_page_options: model.json().nullable(),
      /** The shopper-facing name of a method per locale: { "pgs-wallets": { "sv-SE": "…" } }; null: the widget's own. */
      method_names: model.json().nullable(),
      is_default: model.boolean().default(false),
      /** Capture on fulfillment for payments made on this terminal (the option captureOnFulfillment: on every terminal). */
      capture_on_fulfillment: model.boolean().default(false),
    },
  )
  .checks([
    { name: "pgs_terminal_setting_terminal_id_length", expression: (c) => `length(${c.terminal_id}) between 5 and 20` },
  ])
