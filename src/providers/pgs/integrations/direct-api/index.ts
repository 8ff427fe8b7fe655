/**
 * The Direct API (saved cards, wallet and network tokens; raw card fields only in PCI scope SAQ D): initiate
 * checks and seals the payment method, nothing is sent; cart completion authorizes, and a 3-D Secure step the
 * gateway asks for becomes requires_more with the step for the browser (three-ds.ts continues it).
 */
import type { PaymentProviderContext } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { isValidNotificationUrl, type AuthorizeRequest, type ExecutionResult, type PaymentMethodInput } from "../../../../gateway"
import { browserInfoOf, clearedPublicBrowserInfo, customerIpOf, type SealedSecrets } from "../../../../payments/seal"
import { cardTransactionType, type PgsSessionData } from "../../../../payments/session-data"
import { applyStep, baseSession, customerOfContext, describe, refusal, returnUrl, trimSlash } from "../../attempt"
import { stepOutcome } from "../../next-step"
import type { InitiateInput } from "../../initiate-input"
import type { Integration } from "../integration"
import { prepareDirectMethod } from "./payment-method"
import { continueThreeDS } from "./three-ds"

export const directApi: Integration = {
  name: "direct_api",
  takesTransactionFromOutside: false,

  async start(deps, attempt) {
    const { choice, context, previous, start } = attempt
    if (choice.kind !== "card") throw new Error("the Direct API pays by card")
    const input = choice.input
    const consent = consentOf(deps.options.savedCardConsent, input, previous?.data) // refused input first
    const base = baseSession(deps, attempt, "direct_api")
    let publicMethod: PgsSessionData["payment_method"]
    let secrets: SealedSecrets
    let gatewayCustomerId: string | undefined
    if (previous) {
      // The amount changed: the method the shopper chose (and its owner) carries over, checked at the first attempt.
      publicMethod = previous.data.payment_method
      const customerIp = customerIpOf(previous.data, previous.secrets)
      secrets = {
        payment_method: previous.secrets.payment_method,
        ...(input.browser_info ? { browser_info: input.browser_info } : {}),
        ...(customerIp ? { customer_ip: customerIp } : {}),
      }
      gatewayCustomerId = previous.data.gateway_customer_id
    } else {
      if (!input.browser_info)
        throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.browser_info is required for card payments through the Direct API (3-D Secure needs it)")
      const prepared = await (attempt.directMethod ?? prepareDirectMethod(deps, input.payment_method!, context))
      publicMethod = prepared.publicMethod
      secrets = { payment_method: prepared.gatewayMethod, browser_info: input.browser_info }
      gatewayCustomerId = prepared.gatewayCustomerId
      if (input.save_card) {
        const holder = accountHolderId(context)
        if (!holder)
          throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.save_card needs a logged-in customer: a card is saved for the customer's gateway account")
        gatewayCustomerId = holder
      }
    }
    return {
      ...base,
      payment_method: publicMethod,
      ...(input.save_card ? { save_card: true } : {}),
      ...consent,
      ...(previous ? clearedPublicBrowserInfo(previous.data) : {}),
      ...(gatewayCustomerId ? { gateway_customer_id: gatewayCustomerId } : {}),
      sealed: deps.sealer.seal(secrets, start.sessionId),
    }
  },

  async authorize(deps, current, context) {
    const secrets = deps.sealer.open(current.sealed, current.session_id)
    if (!secrets.payment_method) throw new MedusaError(MedusaError.Types.INVALID_DATA, "PGS session has no payment method to authorize")
    const browserInfo = browserInfoOf(current, secrets)
    if (!browserInfo) throw new MedusaError(MedusaError.Types.INVALID_DATA, "PGS session has no browser_info")
    const notificationUrl = `${trimSlash(deps.options.backendUrl)}/hooks/pgs/three-ds/notification?session_id=${encodeURIComponent(current.session_id)}`
    const customer = customerOfContext(context)
    const body: AuthorizeRequest = {
      reference: current.reference,
      terminal_id: current.terminal_id,
      description: describe(current.reference),
      currency: current.currency_code.toUpperCase(),
      amount: current.amount_minor,
      transaction_type: cardTransactionType(current.transaction_type),
      payment_method: secrets.payment_method as PaymentMethodInput,
      browser_info: browserInfo,
      return_url: returnUrl(deps, current),
      metadata: { medusa_payment_session_id: current.session_id, ...(current.simulated_flow ? { simulated_flow: current.simulated_flow } : {}) },
      ...(customerIpOf(current, secrets) ? { customer_ip: customerIpOf(current, secrets) } : {}),
      ...(current.gateway_customer_id ? { customer: { id: current.gateway_customer_id, ...customer } } : {}),
      ...(current.save_card ? { tokenization: { save_card_for_future_payments: true, tokenize_for: current.tokenize_for ?? "CUSTOMER_INITIATED_TRANSACTION" } } : {}),
      // The gateway honours an override only over https; on plain-http development hosts its own page is used.
      ...(isValidNotificationUrl(notificationUrl) ? { options: { three_ds: { notification_url: notificationUrl } } } : {}),
    }
    let result: ExecutionResult
    try {
      // Idempotent by reference: a repeat (concurrent completion, retry) returns the same transaction.
      result = await deps.client.payments.authorize(body)
    } catch (error) {
      return refusal(deps, current, error)
    }
    return applyStep(deps, current, stepOutcome(result, current.transaction_type))
  },

  continue: continueThreeDS,

  // Open while a 3-D Secure step for the browser is recorded; otherwise the gateway is deciding.
  awaitingShopper: (current) => !!current.next_action,
}

/**
 * A card is saved for later charges by the shop only when the shopper was asked in words and agreed (the
 * storefront sends them as `merchant_consent`); "save this card" alone keeps it for the shopper's own checkouts.
 * A restarted attempt (amount changed) keeps the consent given at the first.
 */
function consentOf(asked: boolean, input: InitiateInput, previous: PgsSessionData | undefined) {
  if (previous) return previous.merchant_consent ? { tokenize_for: previous.tokenize_for, merchant_consent: previous.merchant_consent } : {}
  const given = input.merchant_consent
  if (!given) return {}
  if (!asked)
    throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.merchant_consent is not asked by this store: its option savedCardConsent is off")
  if (!input.save_card) throw new MedusaError(MedusaError.Types.INVALID_DATA, "data.merchant_consent needs data.save_card: true (the consent is kept with the saved card)")
  return { tokenize_for: "MERCHANT_INITIATED_TRANSACTION" as const, merchant_consent: { ...given, at: new Date().toISOString() } }
}

function accountHolderId(context: PaymentProviderContext | undefined): string | null {
  const id = context?.account_holder?.data?.id
  return typeof id === "string" && id ? id : null
}
