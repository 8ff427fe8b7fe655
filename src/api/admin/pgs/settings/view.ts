import type { InferTypeOf } from "@medusajs/framework/types"
import type { PgsTerminalSetting } from "../../../../modules/pgs/models"

export type TerminalRow = InferTypeOf<typeof PgsTerminalSetting>

/** A terminal setting as the dashboard sees it (it holds no secret). */
export const terminalView = (t: TerminalRow) => ({
  id: t.id,
  terminal_id: t.terminal_id,
  label: t.label,
  currency_codes: t.currency_codes,
  region_ids: t.region_ids,
  transaction_type: t.transaction_type,
  integration_type: t.integration_type,
  notification_url: t.notification_url,
  instalments: t.instalments,
  locale: t.locale,
  css_variables: t.css_variables,
  enabled_methods: t.enabled_methods,
  hosted_page_options: t.hosted_page_options,
  method_names: t.method_names,
  is_default: t.is_default,
  capture_on_fulfillment: t.capture_on_fulfillment,
  created_at: t.created_at,
  updated_at: t.updated_at,
})
