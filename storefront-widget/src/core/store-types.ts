/** What the store API answers that both the cart calls (cart.ts) and the flow (flow.ts) read: in a file of its own so neither imports the other. */

/** The card provider's id (registration id `pgs`): cards, saved cards and the wallet pay through it. */
export const CARD_PROVIDER = "pp_pgs_pgs"

/** The session data the widget reads (public by design: the provider never puts a secret there). */
export type SessionData = {
  integration?: string
  /** Only from a plugin before issue 46: the store now keeps the gateway's transaction id server-side. */
  transaction_id?: string | null
  gateway_status?: string | null
  error?: { code?: string | null } | null
  next_action?: NextAction | null
  locale?: string | null
  script_url?: string
  client_key?: string
  gateway_session_id?: string
  environment?: string
  css_variables?: Record<string, string> | null
}
export type PaymentSession = { id: string; provider_id: string; status: string; data: SessionData }
/** Medusa's order as the store API returns it (the fields a confirmation page reads typed); handed on untouched. */
export type Order = {
  id: string
  display_id?: number
  email?: string | null
  currency_code?: string
  total?: number
  shipping_address?: { country_code?: string | null } | null
  [field: string]: unknown
}

/** The step a payment session asks of the shopper's browser (the store's session data, `next_action`). */
export type NextAction =
  | { type: "fingerprint"; method_url: string | null; three_ds_method_data: string | null }
  | { type: "challenge"; acs_url: string; creq: string; challenge_window_size?: string }
  | { type: "redirect"; url: string }
  | { type: "form_submit"; url: string; fields: Record<string, string> }
