/**
 * What a terminal setting may hold, from the gateway spec: the Embedded Fields' CSS variables and locales, and the
 * plugin's provider identifiers. The dashboard reads this list from GET /admin/pgs/settings/connection, so the
 * browser code never keeps a copy that could drift.
 */
import { HPP_LANGUAGES } from "../../../../gateway/schemas"
import { FAMILIES } from "../../../../payments/method-families"
import { INTEGRATION_TYPES, TRANSACTION_TYPES } from "../../../../modules/pgs/models/terminal-setting"

/** The 15 variables the Embedded Fields document (spec, "Embedded Fields component interface"). */
export const CSS_VARIABLES = [
  "--lib-font-family",
  "--lib-input-font-size",
  "--lib-accent-color",
  "--lib-accent-background-color",
  "--lib-label-font-size",
  "--lib-warning-color",
  "--lib-warning-background-color",
  "--lib-input-color",
  "--lib-input-focus-border-color",
  "--lib-input-border-color",
  "--lib-input-focus-color",
  "--lib-place-holder-color",
  "--lib-input-border-radius",
  "--lib-button-border-radius",
  "--lib-button-font-size",
] as const

/** The Embedded Fields' locales (the same four as the hosted page's languages). */
export const LOCALES = HPP_LANGUAGES

/** Provider identifiers a terminal can be limited to: the card provider and one per method family. */
export const METHODS = ["pgs", ...Object.values(FAMILIES).map((f) => f.identifier)] as const

/**
 * Each method's English name as the storefront widget shows it, so the terminal form names methods as shoppers see
 * them (a test checks these against the widget's own texts).
 */
export const METHOD_LABELS: Record<(typeof METHODS)[number], string> = {
  pgs: "Card",
  "pgs-open-banking": "Online banking",
  "pgs-upi": "UPI",
  "pgs-wallets": "Other wallets (chosen on the next page)",
  "pgs-bank-transfer": "Bank transfer",
  "pgs-qr-code": "QR code",
  "pgs-bank-scheme-redirect": "Bank payment",
  "pgs-openbanking-redirect": "Online banking on your bank's page",
  "pgs-provider-instant": "Instant payment with a code",
  "pgs-wallet-one-redirect": "Wallet One",
  "pgs-wallet-two-redirect": "Wallet Two",
  "pgs-voucher-redirect": "Voucher",
  "pgs-hosted": "Card on a secure payment page",
}

export const catalog = {
  css_variables: CSS_VARIABLES,
  locales: LOCALES,
  methods: METHODS,
  method_labels: METHOD_LABELS,
  transaction_types: TRANSACTION_TYPES,
  integration_types: INTEGRATION_TYPES,
}
