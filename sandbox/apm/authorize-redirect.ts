/**
 * Redirect methods through authorize: provider-instant, voucher-redirect-{code}, wallet-one/two-redirect.
 * The dispatcher (api/authorize.ts) has validated the body and checked the terminal; each start creates a PENDING
 * transaction and answers a redirect to the sandbox provider page.
 */
import type { Customer } from "../schemas"
import { OPERATION, type AuthorizeBody, type AuthorizeFamily } from "../api/authorize-family"
import type { PaymentMethodView } from "../core/types"
import { openTransaction } from "./open-transaction"
import { redirectOrResult } from "./provider-flow"
import { simulatedResult } from "./simulate"

type PayerData = { email: string; first_name: string; last_name: string; phone?: string; country?: string; address?: string; city?: string; postal_code?: string }

/** j***@example.com: enough to recognise the payer, as providers show it. */
const maskEmail = (email: string) => {
  const [local, domain] = email.split("@")
  return `${local.slice(0, 1)}***@${domain}`
}

function methodView(type: string, payer: PayerData | null): PaymentMethodView {
  return { type, method: type, brand: null, masked: payer ? maskEmail(payer.email) : null, hash: null, token: null }
}

/** The payer's details from payment_method.data fill the customer fields the merchant left out. */
function customerOf(body: AuthorizeBody, payer: PayerData | null): Customer | null {
  if (!payer) return body.customer ?? null
  const fromPayer: Customer = {
    first_name: payer.first_name,
    last_name: payer.last_name,
    email: payer.email,
    phone: payer.phone ?? null,
    address: payer.address ?? null,
    city: payer.city ?? null,
    // Spec: payment_method.data.country defaults to PL for provider-instant.
    country: payer.country ?? (body.payment_method.type === "provider-instant" ? "PL" : null),
    postal_code: payer.postal_code ?? null,
  }
  const given = Object.fromEntries(Object.entries(body.customer ?? {}).filter(([, v]) => v !== null && v !== undefined))
  return { ...fromPayer, ...given }
}

export const redirectFamily: AuthorizeFamily = {
  start(ctx, { merchant, terminal, body, req }) {
    const simulated = simulatedResult(req, body.metadata)
    const pm = body.payment_method
    const payer: PayerData | null = "email" in pm.data ? (pm.data as PayerData) : null
    const schemeCode = pm.type === "provider-instant" ? (pm.data.scheme_code ?? null) : null
    const tx = openTransaction(
      ctx,
      {
        merchant_id: merchant.merchant_id,
        terminal_id: terminal.terminal_id,
        reference: body.reference,
        description: body.description,
        currency: body.currency,
        amount: body.amount,
        transaction_type: body.transaction_type,
        integration_type: "DIRECT_API",
        payment_method: methodView(pm.type, payer),
        customer: customerOf(body, payer),
        metadata: body.metadata ?? {},
        browser_info: body.browser_info,
        customer_ip: body.customer_ip ?? req.remoteAddress,
        originator_url: body.originator_url || terminal.website,
        return_url: body.return_url,
        error_url: body.error_url,
        cancel_url: body.cancel_url,
      },
      simulated,
      OPERATION,
      { origin: "authorize", method: pm.type, needs_scheme_code: pm.type === "provider-instant" && !schemeCode, scheme_code: schemeCode },
    )
    return redirectOrResult(ctx, tx)
  },
  replay: (ctx, tx) => redirectOrResult(ctx, tx),
}
