/**
 * The plugin's options (the `pgsOptions` object of medusa-config), one schema for the providers, the module, the
 * webhook receiver and payouts. validateOptions runs at boot for every provider class, so a misconfigured store
 * fails to start with one message naming every bad option and its fix. The module's own options (payoutTerminalId,
 * webhookReceiver) are read apart, where they are used: a bad one stops only that part.
 */
import { createPublicKey } from "node:crypto"
import proxyAddr from "proxy-addr"
import { z } from "zod"
import { PGS_ENV as ENV } from "../../config"
import { DEFAULT_TIMEOUTS } from "../../gateway/transport"
import { CARD_TESTING_ENV, cardTestingOptionsSchema } from "./card-testing-options"

const pem = (what: string) =>
  z.string().refine((value) => {
    try {
      createPublicKey(value.includes("\\n") ? value.replace(/\\n/g, "\n") : value)
      return true
    } catch {
      return false
    }
  }, `is not a PEM public key (${what})`)

/** The transaction types a card payment may start with (option defaultTransactionType). */
export const GATEWAY_TRANSACTION_TYPES = ["AUTHORIZE", "PURCHASE"] as const

/** The client's manage timeout when option timeouts.manage is unset (gateway/transport.ts DEFAULT_TIMEOUTS). */
const DEFAULT_MANAGE_TIMEOUT_MS = DEFAULT_TIMEOUTS.manage
const DEFAULT_MEDUSA_CALL_WAIT_SECONDS = 58
const MAX_MEDUSA_CALL_WAIT_SECONDS = 240

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
  /**
   * Money the gateway takes for a payment session Medusa deleted or replaced, or for an order already canceled, is
   * given back automatically (refunded, or released when only authorized). false: listed for a person instead.
   */
  refundLateApprovals: z.boolean({ error: "must be true or false" }).default(true),
  /** A payment or payout not final after this many minutes is re-read from the gateway's status endpoint. */
  reconcileAfterMinutes: z.number({ error: "must be a number of minutes" }).positive().default(15),
  /**
   * An order awaiting a bank-redirect payment is canceled after this many hours (the gateway never cancels one
   * itself; a later approval is then refunded). 0: never.
   */
  giveUpRedirectOrdersAfterHours: z.number({ error: "must be a number of hours" }).min(0).default(72),
  /**
   * When Medusa creates a fulfillment of an order paid by an authorization, capture what the fulfilled items cost
   * (the first fulfillment also the shipping); the last fulfillment captures the rest as the final capture.
   * Off by default: Medusa's own capture buttons and the order widget's "Capture…" stay the way to capture.
   */
  captureOnFulfillment: z.boolean({ error: "must be true or false" }).default(false),
  /**
   * Webhook events, settled follow-ups, retired sessions and final payouts older than this many days are pruned by
   * the retention job (docs/retention.md); what an open follow-up or an unsettled payout still needs is kept.
   */
  retentionDays: z.int({ error: "must be a whole number of days" }).min(7, { error: "must be at least 7 days" }).default(180),
  /** How long a pay link (`/pgs/pay/{payment collection}`) stays valid after it is issued; the admin can issue a new one. */
  payLinkValidDays: z.number({ error: "must be a number of days" }).positive().max(365, "must be at most 365 days").default(7),
  /**
   * The checkout may ask the shopper's consent to keep a card for later charges by the shop (merchant-initiated):
   * such a card can be charged from the dashboard. Off: cards are saved for the shopper's own later checkouts only.
   */
  savedCardConsent: z.boolean({ error: "must be true or false" }).default(false),
  /**
   * A network token is card-equivalent data a store's own server gets from a wallet or a token service; a browser
   * never types one. Off: a storefront's `payment_method` of type "network-token" is refused (api/card-data-guard.ts).
   */
  networkTokensFromStorefront: z.boolean({ error: "must be true or false" }).default(false),
  /**
   * The proxies in front of the store whose X-Forwarded-For is believed (api/client-address.ts): a number of hops
   * (a CDN plus a balancer is 2), or the proxies' addresses and CIDRs (also "loopback", "linklocal", "uniquelocal"),
   * as Express's "trust proxy" takes them. Default 0: no proxy, the connection's own address, X-Forwarded-For ignored.
   */
  trustedProxies: z
    .union([
      z.int({ error: "must be a whole number of proxy hops" }).min(0, { error: "must be 0 or more hops" }).max(10, { error: "must be at most 10 hops" }),
      z
        .array(z.string().trim().min(1))
        .min(1, { error: "must name at least one address" })
        .refine(compilesAsProxyList, { error: "holds something that is not an IP address, a CIDR or loopback/linklocal/uniquelocal" }),
    ], { error: "must be a number of hops or a list of proxy addresses" })
    .default(0),
  /** The card-testing guard's thresholds (card-testing-options.ts; each also a PGS_CARD_TESTING_* variable). */
  cardTesting: cardTestingOptionsSchema,
  /** Per-call timeouts in ms (the client's defaults: token and read 10 s, write and manage 45 s). */
  timeouts: z
    .strictObject({
      read: z.int().positive().optional(),
      write: z.int().positive().optional(),
      manage: z.int().positive().optional(),
      token: z.int().positive().optional(),
    }, { error: "must be an object with only read, write, manage and token" })
    .optional(),
  /**
   * How long a capture, refund or void webhook that arrives while Medusa's own call for it may still be running
   * waits for that call, counted from when Medusa wrote its row (workflows/pgs-events/management.ts). Given, it must
   * be longer than the manage timeout (a live call has ended by then); at most 4 minutes, so the wait is over before
   * reconciliation looks at a row Medusa left unfinished (5 minutes, workflows/reconcile/policy.ts). Unset: 58 s,
   * as before the option existed, whatever the manage timeout.
   */
  medusaCallWaitSeconds: z
    .number({ error: "must be a number of seconds" })
    .positive({ error: "must be more than 0 seconds" })
    .max(MAX_MEDUSA_CALL_WAIT_SECONDS, { error: `must be at most ${MAX_MEDUSA_CALL_WAIT_SECONDS} seconds` })
    .optional(),
}).check((ctx) => {
  // Shorter than a management call may last, a live call's webhook would be taken for Medusa's own too early.
  const wait = ctx.value.medusaCallWaitSeconds
  const manageMs = ctx.value.timeouts?.manage ?? DEFAULT_MANAGE_TIMEOUT_MS
  if (wait !== undefined && wait * 1000 <= manageMs)
    ctx.issues.push({ code: "custom", input: wait, path: ["medusaCallWaitSeconds"], message: `must be longer than the manage timeout (${manageMs / 1000} s)` })
})
export type PgsProviderOptions = Omit<z.infer<typeof pgsOptionsSchema>, "medusaCallWaitSeconds"> & { medusaCallWaitSeconds: number }

/**
 * The gateway's card-fields script: every Embedded Fields session names it, and so does the store's method list (the
 * widget asks for it while the session is made).
 */
export const cardFieldsScriptUrl = (o: Pick<PgsProviderOptions, "embeddedFieldsScriptUrl" | "apiUrl">): string =>
  o.embeddedFieldsScriptUrl ?? `${o.apiUrl.replace(/\/+$/, "")}/embedded-fields.js`

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
  refundLateApprovals: `leave ${ENV.refundLateApprovals} unset (true) or set it to false to list late money for a person instead of refunding it`,
  reconcileAfterMinutes: `leave ${ENV.reconcileAfterMinutes} unset (15) or give a positive number of minutes`,
  giveUpRedirectOrdersAfterHours: `leave ${ENV.giveUpRedirectOrdersAfterHours} unset (72) or give a number of hours, 0 for never`,
  captureOnFulfillment: `leave ${ENV.captureOnFulfillment} unset (false) or set it to true to capture when Medusa creates a fulfillment`,
  retentionDays: `leave ${ENV.retentionDays} unset (180) or give a whole number of days, at least 7`,
  payLinkValidDays: `leave ${ENV.payLinkValidDays} unset (7) or give a number of days up to 365`,
  savedCardConsent: `leave ${ENV.savedCardConsent} unset (false) or set it to true to let shoppers consent to later charges by the shop`,
  networkTokensFromStorefront: `leave ${ENV.networkTokensFromStorefront} unset (false) or set it to true only when your storefront sends network tokens your own server got from a wallet or a token service`,
  trustedProxies: `leave ${ENV.trustedProxies} unset when nothing stands between the shoppers and this server, or give the number of proxies in front of it (a CDN plus a load balancer: 2) or their addresses, comma-separated (e.g. 10.0.0.0/8,loopback)`,
  cardTesting: `leave ${Object.values(CARD_TESTING_ENV).join(", ")} unset (the defaults in README, Configuration) or give positive whole numbers (minutes may have decimals; ${CARD_TESTING_ENV.enabled}: true or false)`,
  timeouts:
    "leave PGS_TIMEOUT_{READ,WRITE,MANAGE,TOKEN}_MS unset (token and read 10 s, write and manage 45 s) or give { read?, write?, manage?, token? } in milliseconds, each a positive whole number",
  medusaCallWaitSeconds: `leave ${ENV.medusaCallWaitSeconds} unset (${DEFAULT_MEDUSA_CALL_WAIT_SECONDS}) or give a number of seconds longer than the manage timeout (PGS_TIMEOUT_MANAGE_MS) and at most ${MAX_MEDUSA_CALL_WAIT_SECONDS}`,
}

/** Parses the options or throws one Error listing every problem. */
export function parseOptions(raw: unknown): PgsProviderOptions {
  const input = raw && typeof raw === "object" ? stripEmpty(raw as Record<string, unknown>) : {}
  const parsed = pgsOptionsSchema.safeParse(input)
  if (parsed.success)
    return {
      ...parsed.data,
      merchantPublicKey: unescape(parsed.data.merchantPublicKey),
      webhookPublicKey: unescape(parsed.data.webhookPublicKey),
      medusaCallWaitSeconds: parsed.data.medusaCallWaitSeconds ?? DEFAULT_MEDUSA_CALL_WAIT_SECONDS,
    }
  const lines = parsed.error.issues.map((issue) => {
    const key = String(issue.path[0] ?? "options") as keyof PgsProviderOptions
    const why = issue.code === "invalid_type" && input[key] === undefined ? "is missing" : issue.message
    return `- ${key} ${why}: ${FIX[key] ?? "see the README"}`
  })
  throw new Error(`medusa-payment-pgs: invalid provider options\n${lines.join("\n")}`)
}

/** Whether proxy-addr takes the list (it throws on anything that is not an address, a CIDR or a named range). */
function compilesAsProxyList(list: string[]): boolean {
  try {
    proxyAddr.compile(list)
    return true
  } catch {
    return false
  }
}

/** Env vars give "" for unset values; treat them as missing. */
function stripEmpty(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== "" && v !== null && v !== undefined))
}

/** PEMs from a .env file often carry literal "\n". */
const unescape = (value: string | undefined) => (value?.includes("\\n") ? value.replace(/\\n/g, "\n") : value)

export class PgsNotConfiguredError extends Error {
  override name = "PgsNotConfiguredError"
}

/** Option `payoutTerminalId` (PGS_PAYOUT_TERMINAL_ID): where payouts go when a request names no terminal. */
const payoutOptions = z.object({ payoutTerminalId: z.string().min(5).max(20).optional() })

export function payoutTerminalFrom(rawOptions: unknown): string | null {
  const value = (rawOptions as { payoutTerminalId?: unknown } | null | undefined)?.payoutTerminalId
  if (value === undefined || value === null || value === "") return null
  const parsed = payoutOptions.safeParse({ payoutTerminalId: value })
  if (!parsed.success)
    throw new PgsNotConfiguredError("medusa-payment-pgs: payoutTerminalId must be 5 to 20 characters: set PGS_PAYOUT_TERMINAL_ID to the payout terminal from the gateway dashboard, or leave it unset and name terminal_id in each payout")
  return parsed.data.payoutTerminalId ?? null
}

/**
 * Option `webhookReceiver` ({ port, host }; PGS_WEBHOOK_RECEIVER_PORT / _HOST in the example config): run the
 * dedicated webhook receiver (webhook-intake/receiver.ts) on its own port. Unset: webhooks go to the Medusa route only.
 */
const receiverOptions = z
  .object({
    port: z.number({ message: "must be a port number (0 picks a free port)" }).int().min(0).max(65535),
    host: z.string().min(1).default("0.0.0.0"),
  })
  .strict()

export type WebhookReceiverOptions = z.infer<typeof receiverOptions>

export class WebhookReceiverOptionsError extends Error {
  override name = "WebhookReceiverOptionsError"
}

export function webhookReceiverFrom(rawOptions: unknown): WebhookReceiverOptions | null {
  const value = (rawOptions as { webhookReceiver?: unknown } | null | undefined)?.webhookReceiver
  if (value === undefined || value === null) return null
  const parsed = receiverOptions.safeParse(value)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((i) => `webhookReceiver${i.path.length ? "." + i.path.join(".") : ""} ${i.message}`)
  throw new WebhookReceiverOptionsError(
    `medusa-payment-pgs: ${problems.join("; ")}. Set PGS_WEBHOOK_RECEIVER_PORT to the port the gateway's webhooks should reach (e.g. 9100), or leave it unset to receive them on the Medusa route only`,
  )
}
