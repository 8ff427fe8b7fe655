/**
 * `import { pgsOptionsFromEnv } from "medusa-payment-pgs/config"` in a store's medusa-config: the plugin's options
 * read from PGS_* environment variables, so the same object goes to the plugin and to the payment providers and
 * every value lives in .env. This only reads; the options are validated at boot, where each error names the
 * variable to set (modules/pgs/options.ts). `npx medusa-payment-pgs sandbox --write-env .env` writes these names.
 */

import { cardTestingFromEnv } from "./modules/pgs/card-testing-options"

/** Option name → environment variable, for the options that are plain strings. */
export const PGS_ENV_VARIABLES = {
  apiUrl: "PGS_API_URL",
  authUrl: "PGS_AUTH_URL",
  realm: "PGS_REALM",
  clientId: "PGS_CLIENT_ID",
  clientSecret: "PGS_CLIENT_SECRET",
  clientKey: "PGS_CLIENT_KEY",
  environment: "PGS_ENVIRONMENT",
  merchantPublicKey: "PGS_MERCHANT_PUBLIC_KEY",
  webhookPublicKey: "PGS_WEBHOOK_PUBLIC_KEY",
  defaultTerminalId: "PGS_TERMINAL_ID",
  defaultTransactionType: "PGS_TRANSACTION_TYPE",
  payoutTerminalId: "PGS_PAYOUT_TERMINAL_ID",
  storeUrl: "PGS_STORE_URL",
  backendUrl: "PGS_BACKEND_URL",
  originatorUrl: "PGS_ORIGINATOR_URL",
  rawCardDataPciScope: "PGS_RAW_CARD_PCI_SCOPE",
  embeddedFieldsScriptUrl: "PGS_EMBEDDED_FIELDS_SCRIPT_URL",
  locale: "PGS_LOCALE",
} as const

/** Options that are numbers, booleans or lists, read from these variables ("true"/"false" for booleans, lists comma-separated). */
export const PGS_ENV_SETTINGS = {
  refundLateApprovals: "PGS_REFUND_LATE_APPROVALS",
  reconcileAfterMinutes: "PGS_RECONCILE_AFTER_MINUTES",
  giveUpRedirectOrdersAfterHours: "PGS_GIVE_UP_REDIRECT_AFTER_HOURS",
  captureOnFulfillment: "PGS_CAPTURE_ON_FULFILLMENT",
  retentionDays: "PGS_RETENTION_DAYS",
  payLinkValidDays: "PGS_PAY_LINK_VALID_DAYS",
  savedCardConsent: "PGS_SAVED_CARD_CONSENT",
  networkTokensFromStorefront: "PGS_NETWORK_TOKENS_FROM_STOREFRONT",
  trustedProxies: "PGS_TRUSTED_PROXIES",
  medusaCallWaitSeconds: "PGS_MEDUSA_CALL_WAIT_SECONDS",
} as const

/** Every option that has its own variable. */
export const PGS_ENV = { ...PGS_ENV_VARIABLES, ...PGS_ENV_SETTINGS }

type Env = Record<string, string | undefined>
type StringOption = keyof typeof PGS_ENV_VARIABLES
export type PgsOptionsFromEnv = Partial<Record<StringOption, string>> & {
  refundLateApprovals?: boolean | string
  captureOnFulfillment?: boolean | string
  reconcileAfterMinutes?: number
  giveUpRedirectOrdersAfterHours?: number
  retentionDays?: number
  payLinkValidDays?: number
  medusaCallWaitSeconds?: number
  savedCardConsent?: boolean | string
  networkTokensFromStorefront?: boolean | string
  /** A number of hops, or the proxies' addresses (PGS_TRUSTED_PROXIES: "2" or "10.0.0.0/8,loopback"). */
  trustedProxies?: number | string[]
  timeouts?: Partial<Record<(typeof TIMEOUT_KINDS)[number], number>>
  /** The card-testing guard's thresholds (PGS_CARD_TESTING_*, modules/pgs/card-testing-options.ts). */
  cardTesting?: Record<string, unknown>
  webhookReceiver?: { port: number; host?: string }
}

const TIMEOUT_KINDS = ["read", "write", "manage", "token"] as const

/** Empty values count as unset, as a .env line `PGS_LOCALE=` means. */
const read = (env: Env, name: string) => (env[name] === undefined || env[name] === "" ? undefined : env[name])

/**
 * Reads every PGS_* variable (default: process.env). Numbers (PGS_TIMEOUT_{READ,WRITE,MANAGE,TOKEN}_MS,
 * PGS_WEBHOOK_RECEIVER_PORT) are passed on as numbers, or NaN when they are not, which the boot check names.
 */
export function pgsOptionsFromEnv(env: Env = process.env): PgsOptionsFromEnv {
  const options: PgsOptionsFromEnv = {}
  for (const [option, variable] of Object.entries(PGS_ENV_VARIABLES) as [StringOption, string][]) {
    const value = read(env, variable)
    if (value !== undefined) options[option] = value
  }
  // Anything but true/false is passed on as written, for the boot check to name.
  for (const key of ["refundLateApprovals", "savedCardConsent", "captureOnFulfillment", "networkTokensFromStorefront"] as const) {
    const value = read(env, PGS_ENV_SETTINGS[key])
    if (value !== undefined) options[key] = value === "true" ? true : value === "false" ? false : value
  }
  for (const key of ["reconcileAfterMinutes", "giveUpRedirectOrdersAfterHours", "retentionDays", "payLinkValidDays", "medusaCallWaitSeconds"] as const) {
    const value = read(env, PGS_ENV_SETTINGS[key])
    if (value !== undefined) options[key] = Number(value)
  }
  const proxies = read(env, PGS_ENV_SETTINGS.trustedProxies)
  if (proxies !== undefined) options.trustedProxies = /^\s*\d+\s*$/.test(proxies) ? Number(proxies) : proxies.split(",").map((part) => part.trim())
  const timeouts = Object.fromEntries(
    TIMEOUT_KINDS.flatMap((kind) => {
      const value = read(env, `PGS_TIMEOUT_${kind.toUpperCase()}_MS`)
      return value === undefined ? [] : [[kind, Number(value)]]
    }),
  )
  if (Object.keys(timeouts).length) options.timeouts = timeouts
  const cardTesting = cardTestingFromEnv(env)
  if (cardTesting) options.cardTesting = cardTesting
  const port = read(env, "PGS_WEBHOOK_RECEIVER_PORT")
  if (port !== undefined) options.webhookReceiver = { port: Number(port), host: read(env, "PGS_WEBHOOK_RECEIVER_HOST") }
  return options
}
