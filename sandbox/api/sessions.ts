/**
 * POST /api/sessions: the Embedded Fields session. Idempotent by (terminal, reference) like payments:
 * the same amount and currency return the existing session, anything else is a 422 on `reference`.
 */
import { sessionRequest, type SessionResponse } from "../schemas"
import { requireMerchant } from "../core/auth"
import { checkTerminal, type SandboxContext } from "../core/context"
import { invalid, json, validateBody, type Reply, type SandboxRequest } from "../core/http"
import { newId, nowIso } from "../core/ids"
import type { PaymentSessionRecord } from "../core/types"
import { assertSameOrder } from "../core/idempotency"

export function sessionView(s: PaymentSessionRecord): SessionResponse {
  return {
    id: s.id,
    status: s.status,
    terminal_id: s.terminal_id,
    reference: s.reference,
    description: s.description,
    currency: s.currency,
    amount: s.amount,
    transaction_type: s.transaction_type,
    return_url: s.return_url,
    customer: s.customer,
    country: s.country,
    originator_url: s.originator_url,
  }
}

export async function createSession(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const body = validateBody(req, sessionRequest)

  // Assumption: no transaction exists yet to carry a 2013-2017 processing code, so a terminal or merchant that
  // cannot take the session is a validation error on terminal_id; params carry the processing code.
  const check = checkTerminal(merchant, body.terminal_id, { feature: `TRX_TYPE_${body.transaction_type}` })
  if ("refusal" in check) throw invalid(req, "terminal_id", check.refusal.message, [body.terminal_id, check.refusal.processing_code])

  const existing = ctx.store.findSessionByReference(merchant.merchant_id, body.terminal_id, body.reference)
  if (existing) {
    assertSameOrder(req, existing, body)
    return json(200, sessionView(existing))
  }

  const session: PaymentSessionRecord = {
    id: newId("ses"),
    merchant_id: merchant.merchant_id,
    terminal_id: body.terminal_id,
    reference: body.reference,
    description: body.description,
    currency: body.currency,
    amount: body.amount,
    transaction_type: body.transaction_type,
    return_url: body.return_url,
    customer: body.customer ?? null,
    country: body.country ?? null,
    originator_url: body.originator_url ?? null,
    status: "CREATED",
    created_at: nowIso(),
    transaction_ids: [],
  }
  // Assumption: sessions do not expire in the sandbox (the spec does not say when they would).
  ctx.store.addSession(session)
  // Assumption: the success status is not shown; 200 like every other documented success.
  return json(200, sessionView(session))
}
