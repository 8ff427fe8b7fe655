/**
 * What every integration's session is made of: the attempt's core (session, reference, terminal, amount,
 * currency) under its integrity seal, the gateway-facing description and return URLs, and how a gateway step or
 * refusal becomes the session's new data and Medusa status.
 */
import type { AuthorizePaymentOutput, PaymentProviderContext } from "@medusajs/framework/types"
import { MedusaError, PaymentSessionStatus } from "@medusajs/framework/utils"
import { isGatewayError, type MoneyInput } from "../../gateway"
import { medusaAmountInMinorUnits } from "../../lib/medusa-amount"
import { payLinkResultUrl } from "../../payments/pay-link"
import { gatewayReferenceFor } from "../../payments/reference"
import { GATEWAY_UNAVAILABLE, GATEWAY_UNAVAILABLE_MESSAGE } from "../../payments/gateway-unavailable"
import { tellTerminalRefusal } from "../../payments/terminal-refused"
import { APPROVED_SESSION_STATUSES } from "../../payments/status-table"
import { parseSessionData, type AttemptCore, type GatewayTransactionType, type PgsSessionData } from "../../payments/session-data"
import type { ProviderDeps } from "./deps"
import type { AttemptStart, NewAttempt } from "./integrations/integration"
import type { StepOutcome } from "./next-step"
import { chooseTerminal, type TerminalChoice } from "./terminal"

import { toMedusaError } from "./to-medusa-error"

/** Reference, terminal (settings change without a restart), amount in minor units and currency of attempt `attempt`. */
export async function attemptStart(deps: ProviderDeps, sessionId: string, attempt: number, amount: MoneyInput, currencyCode: string): Promise<AttemptStart> {
  const currency = currencyCode.toLowerCase()
  const amountMinor = medusaAmountInMinorUnits(amount, currency)
  const reference = gatewayReferenceFor(sessionId, attempt)
  const terminal = await terminalFor(deps, { currency_code: currency })
  return { terminal, sessionId, reference, attempt, currency, amountMinor }
}

/** The terminal settings that serve this session's currency now. */
export function terminalFor(deps: ProviderDeps, current: Pick<PgsSessionData, "currency_code">): Promise<TerminalChoice> {
  return chooseTerminal(deps.knex, deps.options, current.currency_code, (m) => deps.logger.warn(m))
}

/** The integrity-sealed fields every session carries, for one integration and transaction type. */
export function sealedCore(
  deps: ProviderDeps,
  start: AttemptStart,
  transactionType: GatewayTransactionType,
  integration: PgsSessionData["integration"],
): PgsSessionData {
  const fields: AttemptCore = {
    session_id: start.sessionId,
    reference: start.reference,
    attempt: start.attempt,
    terminal_id: start.terminal.terminal_id,
    transaction_type: transactionType,
    currency_code: start.currency,
    amount_minor: start.amountMinor,
  }
  return { ...fields, integrity: deps.sealer.integrity(fields), integration }
}

/** Parses data that comes back from Medusa and checks it was made by this server for this payment. */
export function verified(deps: ProviderDeps, data: unknown): PgsSessionData {
  const current = parseSessionData(data)
  if (!deps.sealer.verifyIntegrity(current))
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "PGS session data was altered: its reference, terminal, amount or currency no longer match what this server issued")
  return current
}

/** The description the gateway shows the shopper (1 to 100 characters). */
export const describe = (reference: string): string => `Order payment ${reference}`.slice(0, 100)

export const trimSlash = (url: string) => url.replace(/\/+$/, "")

/** Where the gateway sends the shopper back to: the storefront's return page, told which session it was. */
export function returnUrl(deps: ProviderDeps, current: Pick<PgsSessionData, "session_id" | "return_to">, outcome?: "success" | "error" | "cancel"): string {
  if (current.return_to === "pay_link") return payLinkResultUrl(deps.options.backendUrl, current.session_id, outcome)
  const url = new URL(`${trimSlash(deps.options.storeUrl)}/checkout/return`)
  url.searchParams.set("pgs_session", current.session_id)
  if (outcome) url.searchParams.set("pgs_outcome", outcome)
  return url.toString()
}

/** `any`: for methods with a single return URL used whatever happened (instant PLN method, vouchers). */
export type ReturnUrls = { success: string; error: string; cancel: string; any: string }

/** The storefront's return page, with a hint of the outcome where the gateway has one URL per outcome. */
export function returnUrls(deps: ProviderDeps, current: Pick<PgsSessionData, "session_id" | "return_to">): ReturnUrls {
  return {
    success: returnUrl(deps, current, "success"),
    error: returnUrl(deps, current, "error"),
    cancel: returnUrl(deps, current, "cancel"),
    any: returnUrl(deps, current),
  }
}

/**
 * A gateway step applied to the session: its patch, and for the Direct API the 3-D Secure payment_data kept
 * sealed for the next call (never in the public data).
 */
export function applyStep(deps: ProviderDeps, current: PgsSessionData, outcome: StepOutcome): { status: PaymentSessionStatus; data: PgsSessionData } {
  const patch = Object.fromEntries(Object.entries(outcome.patch).filter(([, v]) => v !== undefined))
  if (APPROVED_SESSION_STATUSES.has(outcome.status)) return { status: outcome.status, data: withoutSingleUseFields({ ...current, ...patch }) }
  let sealed = current.sealed
  if (current.integration === "direct_api" && outcome.paymentData !== undefined) {
    const secrets = deps.sealer.open(current.sealed, current.session_id)
    const paymentData = outcome.paymentData ?? undefined
    // Sealed again only when the 3-D Secure payment_data it keeps changes (a finished payment usually has none).
    if (paymentData !== secrets.payment_data) sealed = deps.sealer.seal({ ...secrets, payment_data: paymentData }, current.session_id)
  }
  return { status: outcome.status, data: { ...current, ...patch, ...(sealed ? { sealed } : {}) } }
}

/**
 * Fields a session needs only until the gateway approves the payment: the browser's details and the shopper's IP
 * (3-D Secure, redirect methods) and the sealed credentials, payer details and 3-D Secure data. Once the money is
 * authorized nothing reads them again (captures, refunds, voids and webhooks go by the transaction), so neither the
 * payment nor the session keeps personal data it no longer needs, and the workflows after the authorization carry
 * less (FRAMEWORK-NOTES 63). Null, not left out: Medusa merges a session's stored data with what the provider
 * returns, so a key left out would be kept (storefront-data.ts).
 */
function withoutSingleUseFields(data: PgsSessionData): PgsSessionData {
  return { ...data, browser_info: null, customer_ip: null, sealed: null }
}

/**
 * A gateway refusal of the request (validation, bad request) is the shopper's failed payment; anything else is thrown.
 * A refusal of the terminal itself (a hosted page or redirect payment made at authorization, before any transaction:
 * a 422 on `terminal_id`) is the shop admin's to fix, and told to the shopper as payments being unavailable.
 */
export async function refusal(deps: ProviderDeps, current: PgsSessionData, error: unknown): Promise<AuthorizePaymentOutput> {
  if (error instanceof MedusaError) throw error
  if (await tellTerminalRefusal(deps.knex, deps.logger, { terminalId: current.terminal_id, currency: current.currency_code }, error))
    return { status: PaymentSessionStatus.ERROR, data: { ...current, error: { code: GATEWAY_UNAVAILABLE, message: GATEWAY_UNAVAILABLE_MESSAGE } } }
  if (isGatewayError(error) && (error.type === "validation" || error.type === "bad_request")) {
    deps.logger.warn(`[pgs] payment refused for ${current.session_id}: ${error.merchantMessage}`)
    return { status: PaymentSessionStatus.ERROR, data: { ...current, error: { code: "REFUSED", message: error.shopperMessage } } }
  }
  throw toMedusaError(error, "authorizePayment", "shopper", deps.logger)
}

/** The fields every new session starts with; a card payment in the sandbox also keeps its 3-D Secure simulator flow. */
export function baseSession(deps: ProviderDeps, attempt: NewAttempt, integration: PgsSessionData["integration"]): PgsSessionData {
  const simulatedFlow = attempt.choice.kind === "card" ? attempt.choice.input.simulated_flow : undefined
  return { ...sealedCore(deps, attempt.start, attempt.transactionType, integration), ...(simulatedFlow ? { simulated_flow: simulatedFlow } : {}) }
}

/** The gateway's optional customer object from the logged-in customer Medusa passes (cards). */
export function customerOfContext(context: PaymentProviderContext | undefined) {
  const c = context?.customer
  if (!c) return undefined
  return {
    ...(c.email ? { email: c.email } : {}),
    ...(c.first_name ? { first_name: c.first_name } : {}),
    ...(c.last_name ? { last_name: c.last_name } : {}),
  }
}
