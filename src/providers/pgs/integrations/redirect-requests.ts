/** The gateway requests that start a redirect-family payment (payment endpoint or a redirect authorize), from the session and the payer. */
import { MedusaError } from "@medusajs/framework/utils"
import type { AuthorizeRequest, BrowserInfo, ExecutionResult, PgsClient } from "../../../gateway"
import type { PgsSessionData } from "../../../payments/session-data"
import type { ReturnUrls } from "../attempt"
import type { AuthorizeRedirectFamily, MethodFamily, PaymentEndpointFamily } from "../../../payments/method-families"
import { customerOf, requirePayer, type Payer } from "./payer"


type StartInput = {
  current: PgsSessionData
  payer: Payer
  methodData: Record<string, string>
  browserInfo: BrowserInfo | undefined
  /** The shopper's IP the client-info route recorded (sealed). */
  customerIp: string | undefined
  urls: ReturnUrls
  description: string
  originatorUrl: string | undefined
}


const missingClientInfo = (what: string, who: string) =>
  new MedusaError(
    MedusaError.Types.INVALID_DATA,
    `${who} needs the shopper's ${what}: call POST /store/pgs/payment-sessions/:id/client-info from the shopper's browser before completing the cart`,
  )

export function startRedirectPayment(client: PgsClient, family: MethodFamily, input: StartInput): Promise<ExecutionResult> {
  if (family.kind === "payment") return client.payments.payment(paymentBody(family, input))
  if (family.kind === "authorize") return client.payments.authorize(authorizeBody(family, input))
  throw new Error("the hosted payment page is not started by startRedirectPayment")
}

function paymentBody({ identifier }: PaymentEndpointFamily, { current, payer, customerIp, urls, description, originatorUrl }: StartInput) {
  if (!customerIp) throw missingClientInfo("IP address", identifier)
  const { country } = requirePayer(payer, ["country"], identifier)
  return {
    terminal_id: current.terminal_id,
    reference: current.reference,
    description,
    currency: current.currency_code.toUpperCase(),
    amount: current.amount_minor,
    method: current.method!.type,
    country,
    customer_ip: customerIp,
    return_url: urls.success,
    error_url: urls.error,
    cancel_url: urls.cancel,
    metadata: { medusa_payment_session_id: current.session_id },
    ...(customerOf(payer) ? { customer: customerOf(payer) } : {}),
    ...(originatorUrl ? { originator_url: originatorUrl } : {}),
  }
}

function authorizeBody(family: AuthorizeRedirectFamily, { current, payer, methodData, browserInfo, customerIp, urls, description }: StartInput): AuthorizeRequest {
  const who = family.identifier
  const required = requirePayer(payer, family.payerFields, who)
  const common = {
    reference: current.reference,
    terminal_id: current.terminal_id,
    description,
    currency: current.currency_code.toUpperCase(),
    amount: current.amount_minor,
    transaction_type: "PURCHASE" as const,
    // Wallet redirects also take error and cancel URLs; the other two have one return URL for every outcome.
    return_url: family.paymentType.startsWith("wallet-") ? urls.success : urls.any,
    metadata: { medusa_payment_session_id: current.session_id },
    ...(customerIp ? { customer_ip: customerIp } : {}),
  }
  switch (family.paymentType) {
    case "provider-instant":
      return {
        ...common,
        payment_method: {
          type: "provider-instant",
          data: {
            ...required,
            ...(methodData.phone ?? payer.phone ? { phone: methodData.phone ?? payer.phone } : {}),
            ...(payer.country ? { country: payer.country } : {}),
            ...(payer.address ? { address: payer.address } : {}),
            ...(payer.city ? { city: payer.city } : {}),
            ...(payer.postal_code ? { postal_code: payer.postal_code } : {}),
            ...(methodData.scheme_code ? { scheme_code: methodData.scheme_code } : {}),
          },
        },
      }
    case "voucher-redirect":
      // The voucher schema also requires customer and browser_info (spec "Voucher redirect family").
      if (!browserInfo) throw missingClientInfo("browser details (browser_info)", who)
      return {
        ...common,
        payment_method: { type: current.method!.type as `voucher-redirect-${"ali"}`, data: { email: required.email!, first_name: required.first_name!, last_name: required.last_name! } },
        customer: customerOf(payer)!,
        browser_info: browserInfo,
      }
    case "wallet-one-redirect":
    case "wallet-two-redirect":
      return {
        ...common,
        error_url: urls.error,
        cancel_url: urls.cancel,
        payment_method: { type: family.paymentType, data: {} },
        ...(customerOf(payer) ? { customer: customerOf(payer) } : {}),
      }
  }
}
