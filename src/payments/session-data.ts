/**
 * The public session data of a PGS payment session. Medusa stores it on the payment session and serves it to
 * the storefront, so it holds NOTHING secret: wallet tokens, encrypted card fields and 3-D Secure payment_data
 * travel only inside `sealed` (AES-256-GCM under a key derived from the client secret, see seal.ts).
 * `integrity` is an HMAC over the fields that decide what a gateway transaction must match (session, reference,
 * terminal, amount, currency), so data coming back from Medusa cannot be re-pointed at another payment.
 * WEBHOOKS imports this schema read-only. This is the data as the provider holds it; Medusa stores it in the form of
 * stored-session-data.ts (the fields no storefront reads in one string), which parseSessionData reads.
 */
import { z } from "zod"
import { browserInfo, TRANSACTION_STATUSES } from "../gateway/schemas"
import { GATEWAY_TRANSACTION_TYPES } from "../modules/pgs/options"
import { merchantConsent } from "./merchant-consent"
import { readStoredSessionData } from "./stored-session-data"

/** What a terminal may be set to for cards (options, terminal settings). */
export type CardTransactionType = (typeof GATEWAY_TRANSACTION_TYPES)[number]
/** What a session's transaction can be: the card types, or PAYMENT (the payment endpoint's alternative methods). */
export const SESSION_TRANSACTION_TYPES = [...GATEWAY_TRANSACTION_TYPES, "PAYMENT"] as const
export type GatewayTransactionType = (typeof SESSION_TRANSACTION_TYPES)[number]
/** PURCHASE and PAYMENT take the money in one step: nothing to capture, nothing to void. */
export const isSingleStep = (type: GatewayTransactionType) => type !== "AUTHORIZE"
/** The card transaction type of a session that pays by card (never PAYMENT, which only the payment endpoint makes). */
export function cardTransactionType(type: GatewayTransactionType): CardTransactionType {
  if (type === "PAYMENT") throw new Error("A PAYMENT session cannot pay by card")
  return type
}

/** The fields every attempt carries and its integrity seal covers. */
export type AttemptCore = {
  session_id: string
  reference: string
  attempt: number
  terminal_id: string
  transaction_type: GatewayTransactionType
  currency_code: string
  amount_minor: number
}

/**
 * How the shopper pays: embedded card fields, Direct API (server-side authorize with a token or saved card),
 * a redirect to a provider page (alternative methods), or the gateway's hosted payment page.
 */
export const INTEGRATIONS = ["embedded_fields", "direct_api", "redirect", "hosted_payment_page"] as const

/*
 * Every object of the stored shape is loose: during a rolling upgrade this release writes back data the next release
 * made, and a key it does not know must survive that write (docs/production.md, "Rolling upgrades").
 */

/** The next thing the shopper's browser must do (Direct API), with only what the browser needs. */
export const nextAction = z.discriminatedUnion("type", [
  z.looseObject({
    type: z.literal("fingerprint"),
    three_ds_server_trans_id: z.string(),
    /** Null when the ACS has no method URL: skip the iframe and call request-authentication with submitted=false. */
    method_url: z.string().nullable(),
    three_ds_method_data: z.string().nullable(),
  }),
  z.looseObject({
    type: z.literal("challenge"),
    three_ds_server_trans_id: z.string(),
    acs_url: z.string(),
    creq: z.string(),
    challenge_window_size: z.string(),
  }),
  z.looseObject({ type: z.literal("redirect"), url: z.string() }),
  z.looseObject({ type: z.literal("form_submit"), url: z.string(), fields: z.record(z.string(), z.string()) }),
])
export type NextAction = z.infer<typeof nextAction>

/** What the storefront chose (Direct API), without credentials: those are sealed. */
export const publicPaymentMethod = z.discriminatedUnion("type", [
  z.looseObject({ type: z.literal("saved_card"), saved_card_id: z.string(), brand: z.string().nullish(), last_4: z.string().nullish() }),
  z.looseObject({ type: z.literal("wallet-one") }),
  z.looseObject({ type: z.literal("network-token") }),
  z.looseObject({ type: z.literal("card") }),
])
export type PublicPaymentMethod = z.infer<typeof publicPaymentMethod>

const managementRecord = z.looseObject({
  /** Medusa's idempotency key of the operation (capture id, refund id, payment id). */
  key: z.string(),
  transaction_id: z.string().nullable(),
  amount_minor: z.int(),
  /**
   * "applied": the gateway answered; "confirmed": proven by the parent's status; "external": made outside Medusa, only
   * recorded; "nothing_sent": a share of nothing (a fraction of a cent the rows before it already carried), which the
   * gateway would refuse: recorded without calling it.
   */
  kind: z.enum(["applied", "confirmed", "external", "nothing_sent"]),
  /** A capture sent with options.final_capture: the gateway closes the authorization (nothing more to capture). */
  final_capture: z.boolean().optional(),
})

export const pgsSessionData = z
  .object({
    /** The Medusa payment session id (Medusa's webhook pipeline needs it under this name). */
    session_id: z.string(),
    reference: z.string(),
    attempt: z.int().min(1),
    terminal_id: z.string(),
    transaction_type: z.enum(SESSION_TRANSACTION_TYPES),
    /** Lowercase, as Medusa stores it. */
    currency_code: z.string(),
    amount_minor: z.int(),
    integration: z.enum(INTEGRATIONS),
    integrity: z.string(),
    /** Redirect methods and the hosted page: the method family and the gateway's method/type value. */
    method: z.looseObject({ family: z.string(), type: z.string() }).optional(),
    /** A pay link's session: the shopper returns to the plugin's result page, not the storefront. */
    return_to: z.literal("pay_link").optional(),
    /** Hosted payment page: the page made for this attempt. */
    hosted_page_id: z.string().optional(),

    // Embedded Fields: what embedded-fields.js needs. The client key is public by design (it only opens this session).
    gateway_session_id: z.string().optional(),
    client_key: z.string().optional(),
    environment: z.enum(["test", "production"]).optional(),
    script_url: z.string().optional(),
    locale: z.string().optional(),
    instalments: z.boolean().optional(),
    css_variables: z.record(z.string(), z.string()).optional(),

    // Direct API.
    payment_method: publicPaymentMethod.optional(),
    save_card: z.boolean().optional(),
    /**
     * A card saved with the shopper's consent to later charges by the shop (option savedCardConsent): tokenized for
     * MERCHANT_INITIATED_TRANSACTION, with the consent as asked (when, which words; recorded with the card by the
     * tokenization webhook).
     */
    tokenize_for: z.enum(["CUSTOMER_INITIATED_TRANSACTION", "MERCHANT_INITIATED_TRANSACTION"]).optional(),
    merchant_consent: merchantConsent.loose().optional(),
    /** The stored shape that wrote this data (stored-session-data.ts STORED_DATA_VERSION); none before 0.2.0. */
    data_version: z.int().min(1).optional(),
    /**
     * Only in sessions an earlier version of the plugin made: the browser details and the IP are sealed now (seal.ts,
     * browserInfoOf, customerIpOf). Null where the storefront sent them (storefront-data.ts), once sealed, and once
     * the gateway approved (attempt.ts, withoutSingleUseFields), as is sealed.
     */
    browser_info: browserInfo.loose().nullish(),
    customer_ip: z.string().nullish(),
    /** Sandbox only (environment "test"): the 3-D Secure simulator flow forwarded as gateway metadata. */
    simulated_flow: z.string().optional(),
    /** Gateway customer id (account holder) the card is saved for or belongs to. */
    gateway_customer_id: z.string().optional(),
    next_action: nextAction.nullish(),
    sealed: z.string().nullish(),

    // Once known.
    transaction_id: z.string().optional(),
    gateway_status: z.enum(TRANSACTION_STATUSES).optional(),
    /** A failure the shopper may see (never the merchant's diagnostics). */
    error: z.looseObject({ code: z.string().nullable(), message: z.string() }).nullish(),
    captures: z.array(managementRecord).optional(),
    refunds: z.array(managementRecord).optional(),
    void: managementRecord.nullish(),
  })
  // Keys Medusa or other code adds (e.g. a caller's extra data) are kept but never read.
  .loose()

export type PgsSessionData = z.infer<typeof pgsSessionData>

export class SessionDataError extends Error {
  override name = "SessionDataError"
}

/** Re-parse data that comes back from Medusa (either stored form, stored-session-data.ts); names every bad field. */
export function parseSessionData(stored: unknown): PgsSessionData {
  let data: unknown = stored
  try {
    if (stored && typeof stored === "object") data = readStoredSessionData(stored)
  } catch (error) {
    throw new SessionDataError((error as Error).message)
  }
  const parsed = pgsSessionData.safeParse(data)
  if (!parsed.success)
    throw new SessionDataError(
      `PGS session data is not valid: ${parsed.error.issues.map((i) => `${i.path.join(".") || "data"} ${i.message}`).join("; ")}`,
    )
  return parsed.data
}

export const isPgsProviderId = (providerId: string | null | undefined) => typeof providerId === "string" && providerId.startsWith("pp_pgs")
