/** Sandbox options, the default merchant and terminals, and the documented test cards. */
import { randomBytes } from "node:crypto"
import type { FixedKeys } from "./keys"
import type { Merchant, Terminal } from "./types"

export const TEST_CARD_SCENARIOS = [
  "frictionless_approved",
  "redirect_interactive",
  "form_submit_authenticated",
  "form_submit_declined",
  "frictionless_insufficient_funds",
] as const
export type TestCardScenario = (typeof TEST_CARD_SCENARIOS)[number]
export type TestCard = { number: string; brand: "VISA" | "MASTERCARD"; scenario: TestCardScenario }

/** One card per network for each scenario of the spec's simulator table (Luhn-valid, never real). */
export const TEST_CARDS: readonly TestCard[] = [
  { number: "4000000000001000", brand: "VISA", scenario: "frictionless_approved" },
  { number: "4000000000002008", brand: "VISA", scenario: "redirect_interactive" },
  { number: "4000000000003006", brand: "VISA", scenario: "form_submit_authenticated" },
  { number: "4000000000004004", brand: "VISA", scenario: "form_submit_declined" },
  { number: "4000000000005001", brand: "VISA", scenario: "frictionless_insufficient_funds" },
  { number: "5200000000001005", brand: "MASTERCARD", scenario: "frictionless_approved" },
  { number: "5200000000002003", brand: "MASTERCARD", scenario: "redirect_interactive" },
  { number: "5200000000003001", brand: "MASTERCARD", scenario: "form_submit_authenticated" },
  { number: "5200000000004009", brand: "MASTERCARD", scenario: "form_submit_declined" },
  { number: "5200000000005006", brand: "MASTERCARD", scenario: "frictionless_insufficient_funds" },
]

export const CARD_METHODS = ["card", "saved_card", "network-token", "wallet-one"]
export const REDIRECT_METHODS = ["provider-instant", "wallet-one-redirect", "wallet-two-redirect", "voucher-redirect"]
export const PAYMENT_ENDPOINT_METHODS = [
  "OPEN_BANKING",
  "UPI",
  "WALLETS",
  "BANK_TRANSFER",
  "QR_CODE",
  "BANK_SCHEME_REDIRECT",
  "OPENBANKING_REDIRECT",
]
const ALL_FEATURES = ["TRX_TYPE_AUTHORIZE", "TRX_TYPE_PURCHASE", "TRX_TYPE_OCT", "TRX_TYPE_PAYOUT", "TRX_TYPE_PAYMENT"]

export function defaultTerminals(website: string): Terminal[] {
  const t = (terminal_id: string, label: string, features: string[], methods: string[]): Terminal => ({
    terminal_id,
    label,
    features,
    methods,
    website,
    active: true,
    accepting: true,
  })
  return [
    t("SBX-ALL-001", "Everything enabled (the default for store development)", ALL_FEATURES, [
      ...CARD_METHODS,
      ...REDIRECT_METHODS,
      ...PAYMENT_ENDPOINT_METHODS,
    ]),
    t("SBX-CARDS-01", "Cards only", ["TRX_TYPE_AUTHORIZE", "TRX_TYPE_PURCHASE"], CARD_METHODS),
    t("SBX-INSTAL-01", "Cards with instalments (1-6)", ["TRX_TYPE_AUTHORIZE", "TRX_TYPE_PURCHASE", "INSTALMENTS"], CARD_METHODS),
    t("SBX-APM-001", "Alternative and redirect methods", ["TRX_TYPE_PURCHASE", "TRX_TYPE_PAYMENT"], [
      ...REDIRECT_METHODS,
      ...PAYMENT_ENDPOINT_METHODS,
    ]),
    t("SBX-PAYOUT-01", "Payouts (bank account, OCT, PAYOUT)", ["TRX_TYPE_OCT", "TRX_TYPE_PAYOUT"], ["card", "bank_account"]),
  ]
}

export type SandboxOptions = {
  /** 0 picks a free port. */
  port?: number
  host?: string
  /** `uat` (300 s tokens) or `production` (60 s tokens). */
  realm?: string
  /** Shorten token lifetimes for tests. */
  tokenTtlSeconds?: number
  clientId?: string
  clientSecret?: string
  clientKey?: string
  merchantId?: string
  /** Private PEMs to use instead of generated keys (merchant, webhook, idp). */
  keys?: FixedKeys
  /** Webhook retry delays are multiplied by this (1 = real time: 1 s, 2 s, 4 s ... for 24 h). */
  webhookTimeScale?: number
  /** Which of the spec's event names transaction webhooks use (see README, "Assumptions"). */
  eventNames?: "specific" | "generic"
  /** Which of the two documented tokenization payload forms is sent. */
  tokenizationPayload?: "nested" | "flat"
  /** Fixed 3-D Secure method wait in the browser pages, in ms (the spec fixes 5000). */
  fingerprintWaitMs?: number
  /** Above 0: a payout still PENDING this many ms after it became pending is approved, with its webhook (default 0: never). */
  payoutSettleAfterMs?: number
  /** Log each request to stdout. */
  log?: boolean
  /** Keep transactions, sessions, saved cards, queued webhooks ... in this directory across restarts (sandbox/state). */
  stateDir?: string
}

export type ResolvedOptions = Required<Omit<SandboxOptions, "keys" | "port" | "host" | "stateDir">> & { port: number; host: string }

export function resolveOptions(options: SandboxOptions): ResolvedOptions {
  const realm = options.realm ?? "uat"
  return {
    port: options.port ?? 0,
    host: options.host ?? "127.0.0.1",
    realm,
    tokenTtlSeconds: options.tokenTtlSeconds ?? (realm === "production" ? 60 : 300),
    clientId: options.clientId ?? "sandbox-merchant",
    clientSecret: options.clientSecret ?? `sbx_secret_${randomBytes(12).toString("hex")}`,
    clientKey: options.clientKey ?? `sbx_ck_${randomBytes(8).toString("hex")}`,
    merchantId: options.merchantId ?? "mer_sandbox_0001",
    webhookTimeScale: options.webhookTimeScale ?? 1,
    eventNames: options.eventNames ?? "specific",
    tokenizationPayload: options.tokenizationPayload ?? "nested",
    fingerprintWaitMs: options.fingerprintWaitMs ?? 5000,
    payoutSettleAfterMs: options.payoutSettleAfterMs ?? 0,
    log: options.log ?? false,
  }
}

export function defaultMerchant(options: ResolvedOptions, website: string): Merchant {
  return {
    merchant_id: options.merchantId,
    client_id: options.clientId,
    client_secret: options.clientSecret,
    client_key: options.clientKey,
    active: true,
    terminals: defaultTerminals(website),
  }
}
