/**
 * The provider's options (the `pgsOptions` object of medusa-config). validateOptions runs at boot for every
 * provider class, so a misconfigured store fails to start with one message naming every bad option and its fix.
 */
import { createPublicKey } from "node:crypto"
import { z } from "zod"
import { PGS_ENV_VARIABLES as ENV } from "../../config"
import { GATEWAY_TRANSACTION_TYPES } from "./session-data"

const pem = (what: string) =>
  z.string().refine((value) => {
    try {
      createPublicKey(value.includes("\\n") ? value.replace(/\\n/g, "\n") : value)
      return true
    } catch {
      return false
    }
  }, `is not a PEM public key (${what})`)

const url = z.url({ protocol: /^https?$/, error: "is not an http(s) URL" })

export const pgsOptionsSchema = z.object({
  apiUrl: url,
  authUrl: url,
  realm: z.enum(["uat", "production"], { error: 'must be "uat" or "production"' }),
  clientId: z.string().min(1),
  clientSecret: z.string().min(1),
  clientKey: z.string().min(1),
  environment: z.enum(["test", "production"]).default("test"),
  merchantPublicKey: pem("merchant public key").optional(),
  webhookPublicKey: pem("webhook public key").optional(),
  defaultTerminalId: z.string().min(5).max(20),
  defaultTransactionType: z.enum(GATEWAY_TRANSACTION_TYPES).default("AUTHORIZE"),
  storeUrl: url,
  backendUrl: url,
  /** Only a merchant whose PCI DSS scope is SAQ D may take raw card fields on its server. */
  rawCardDataPciScope: z.literal("SAQ_D").optional(),
  embeddedFieldsScriptUrl: url.optional(),
  locale: z.string().min(2).optional(),
  /**
   * The payment endpoint's `method` values that select the two bank redirects. The spec does not name them
   * (README "Assumptions"); the defaults are the sandbox's.
   */
  bankRedirectMethods: z
    .strictObject(
      {
        bankSchemeRedirect: z.string().regex(/^[A-Z][A-Z0-9_]{1,39}$/).default("BANK_SCHEME_REDIRECT"),
        openbankingRedirect: z.string().regex(/^[A-Z][A-Z0-9_]{1,39}$/).default("OPENBANKING_REDIRECT"),
      },
      { error: "must be an object with only bankSchemeRedirect and openbankingRedirect" },
    )
    .default({ bankSchemeRedirect: "BANK_SCHEME_REDIRECT", openbankingRedirect: "OPENBANKING_REDIRECT" }),
  /** Sent as originator_url with alternative payments (else the gateway uses the terminal's website). */
  originatorUrl: url.optional(),
  /** Per-call timeouts in ms (the client's defaults: token and read 10 s, write and manage 45 s). */
  timeouts: z
    .strictObject({
      read: z.int().positive().optional(),
      write: z.int().positive().optional(),
      manage: z.int().positive().optional(),
      token: z.int().positive().optional(),
    }, { error: "must be an object with only read, write, manage and token" })
    .optional(),
})
export type PgsProviderOptions = z.infer<typeof pgsOptionsSchema>

/** How to fix each option, in the words a store developer needs. */
const FIX: Record<keyof PgsProviderOptions, string> = {
  apiUrl: `set ${ENV.apiUrl} (the gateway base URL, e.g. https://api.uat.pgs.example)`,
  authUrl: `set ${ENV.authUrl} (the identity provider URL from the gateway dashboard)`,
  realm: `set ${ENV.realm} (uat or production)`,
  clientId: `set ${ENV.clientId} (merchant details in the gateway dashboard)`,
  clientSecret: `set ${ENV.clientSecret} (merchant details in the gateway dashboard)`,
  clientKey: `set ${ENV.clientKey} (the public client key for Embedded Fields, gateway dashboard)`,
  environment: `set ${ENV.environment} to "test" or "production"`,
  merchantPublicKey: `set ${ENV.merchantPublicKey} to the merchant RSA public key (PEM) from the gateway dashboard`,
  webhookPublicKey: `set ${ENV.webhookPublicKey} to the gateway's webhook signing key (PEM)`,
  defaultTerminalId: `set ${ENV.defaultTerminalId} (5 to 20 characters, the terminal from the gateway dashboard)`,
  defaultTransactionType: `set ${ENV.defaultTransactionType} to "AUTHORIZE" or "PURCHASE"`,
  storeUrl: `set ${ENV.storeUrl} to the storefront's public URL (the shopper returns to it)`,
  backendUrl: `set ${ENV.backendUrl} to this Medusa server's public URL (3-D Secure notifications come back to it)`,
  rawCardDataPciScope: `leave ${ENV.rawCardDataPciScope} unset, or set it to "SAQ_D" only if your PCI DSS scope is SAQ D`,
  embeddedFieldsScriptUrl: `leave ${ENV.embeddedFieldsScriptUrl} unset (defaults to {apiUrl}/embedded-fields.js) or give the script URL`,
  locale: `leave ${ENV.locale} unset or give a locale such as en-US`,
  bankRedirectMethods:
    'leave it unset (BANK_SCHEME_REDIRECT / OPENBANKING_REDIRECT) or give { bankSchemeRedirect?, openbankingRedirect? }, upper-case method names your gateway account manager gave you',
  originatorUrl: `leave ${ENV.originatorUrl} unset (the terminal's website is used) or give the http(s) URL of the shop the shopper buys from`,
  timeouts:
    "leave PGS_TIMEOUT_{READ,WRITE,MANAGE,TOKEN}_MS unset (token and read 10 s, write and manage 45 s) or give { read?, write?, manage?, token? } in milliseconds, each a positive whole number",
}

/** Parses the options or throws one Error listing every problem. */
export function parseOptions(raw: unknown): PgsProviderOptions {
  const input = raw && typeof raw === "object" ? stripEmpty(raw as Record<string, unknown>) : {}
  const parsed = pgsOptionsSchema.safeParse(input)
  if (parsed.success) return { ...parsed.data, merchantPublicKey: unescape(parsed.data.merchantPublicKey), webhookPublicKey: unescape(parsed.data.webhookPublicKey) }
  const lines = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? "options") as keyof PgsProviderOptions
    const why = issue.code === "invalid_type" && input[key] === undefined ? "is missing" : issue.message
    return `- ${key} ${why}: ${FIX[key] ?? "see the README"}`
  })
  throw new Error(`medusa-payment-pgs: invalid provider options\n${lines.join("\n")}`)
}

/** Env vars give "" for unset values; treat them as missing. */
function stripEmpty(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "" && v !== null && v !== undefined))
}

/** PEMs from a .env file often carry literal "\n". */
const unescape = (value: string | undefined) => (value?.includes("\\n") ? value.replace(/\\n/g, "\n") : value)
