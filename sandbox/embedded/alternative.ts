/**
 * POST /embedded/api/sessions/:id/alternative-payment — the alternative-payment-method component's submitPayment.
 * Opens a PENDING transaction for the session's order with the apm/ module's own functions (the same records and
 * provider pages as Direct API), and answers with the redirect; the host page navigates, never the component.
 *   wallet-one-redirect, wallet-two-redirect: authorize-style PURCHASE (spec: PURCHASE only);
 *   bank-scheme-redirect, openbanking-redirect: PAYMENT. Assumption: they use the payment-endpoint methods
 *   BANK_SCHEME_REDIRECT / OPENBANKING_REDIRECT, as the sandbox's terminals name them (the spec does not say).
 */
import { z } from "zod"
import { OPERATION as AUTHORIZE_OPERATION } from "../api/authorize"
import { openTransaction } from "../apm/open-transaction"
import { paymentMethodType, PAYMENT_OPERATION } from "../apm/payment"
import { redirectOrResult } from "../apm/provider-flow"
import { checkTerminal, type SandboxContext } from "../core/context"
import { invalid, json, validateBody, type Reply, type SandboxRequest } from "../core/http"
import type { Customer } from "../schemas"
import { assertSessionOpen, requireClientSession } from "./client-session"

export const ALTERNATIVE_TYPES = ["wallet-one-redirect", "wallet-two-redirect", "bank-scheme-redirect", "openbanking-redirect"] as const
type AlternativeType = (typeof ALTERNATIVE_TYPES)[number]

const BANK_METHODS: Partial<Record<AlternativeType, string>> = {
  "bank-scheme-redirect": "BANK_SCHEME_REDIRECT",
  "openbanking-redirect": "OPENBANKING_REDIRECT",
}

const body = z.object({
  payment_method_type: z.enum(ALTERNATIVE_TYPES),
  customer: z.record(z.string(), z.string()).optional(),
})

export async function alternativePayment(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const { merchant, session } = requireClientSession(ctx, req)
  const { payment_method_type: type, customer } = validateBody(req, body)
  assertSessionOpen(ctx, session)

  // Pressing Pay again while the shopper has not finished at the provider gives the same redirect.
  const open = session.transaction_ids
    .map((id) => ctx.store.transactions.get(id))
    .find((tx) => tx?.status === "PENDING" && (tx.payment_method?.method === type || tx.payment_method?.method === BANK_METHODS[type]))
  if (open) return json(200, redirectOrResult(ctx, open))

  const bankMethod = BANK_METHODS[type]
  if (!bankMethod && session.transaction_type !== "PURCHASE") throw invalid(req, "transaction_type", `only PURCHASE is allowed for ${type}`)
  const check = checkTerminal(merchant, session.terminal_id, bankMethod ? { feature: "TRX_TYPE_PAYMENT", method: bankMethod } : { feature: "TRX_TYPE_PURCHASE", method: type })
  if ("refusal" in check)
    return json(422, { error: "TERMINAL_REFUSED", processing_code: check.refusal.processing_code, message: check.refusal.message })

  const shopper: Customer = { ...(session.customer ?? {}), ...(customer ?? {}) }
  const tx = openTransaction(
    ctx,
    {
      merchant_id: merchant.merchant_id,
      terminal_id: session.terminal_id,
      reference: session.reference,
      description: session.description,
      currency: session.currency,
      amount: session.amount,
      transaction_type: bankMethod ? "PAYMENT" : "PURCHASE",
      integration_type: "EMBEDDED_FIELDS",
      payment_method: bankMethod
        ? { type: paymentMethodType(bankMethod), method: bankMethod, brand: null, masked: null, hash: null, token: null }
        : { type, method: type, brand: null, masked: null, hash: null, token: null },
      customer: Object.keys(shopper).length ? shopper : null,
      metadata: {},
      customer_ip: req.remoteAddress,
      originator_url: session.originator_url || check.terminal.website,
      // Assumption: a session has one return_url, so it also serves as error and cancel URL.
      return_url: session.return_url,
      error_url: session.return_url,
      cancel_url: session.return_url,
      session_id: session.id,
    },
    null,
    bankMethod ? PAYMENT_OPERATION : AUTHORIZE_OPERATION,
    { origin: bankMethod ? "payment" : "authorize", method: bankMethod ?? type, needs_scheme_code: false },
  )
  session.transaction_ids.push(tx.id)
  return json(200, redirectOrResult(ctx, tx))
}
