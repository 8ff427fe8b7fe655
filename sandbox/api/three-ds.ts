/**
 * POST /api/transactions/three-ds/{three_ds_server_trans_id}/request-authentication and
 * POST /api/transactions/three-ds/authentication-completed: the merchant's server-side 3-D Secure steps.
 * payment_data must come back exactly as issued; anything else is a 422 on payment_data.
 */
import { authenticationCompletedRequest, requestAuthenticationRequest } from "../schemas"
import { requireMerchant } from "../core/auth"
import type { SandboxContext } from "../core/context"
import type { Merchant } from "../core/types"
import { invalid, json, notFound, validateBody, type Reply, type Router, type SandboxRequest } from "../core/http"
import { cardFlow, findByServerTransId, openPaymentData } from "../cards/flow"
import { completeChallenge, requestAuthentication } from "../cards/three-ds-flow"

/** The transaction a payment_data names, after checking it is intact, current and the caller's own. */
function flowOf(ctx: SandboxContext, req: SandboxRequest, merchant: Merchant, paymentData: string, serverTransId: string, idProperty: string) {
  const opened = openPaymentData(ctx, paymentData)
  if (!opened) throw invalid(req, "payment_data", "must be passed back unchanged from the action")
  if (opened.serverTransId !== serverTransId) throw invalid(req, idProperty, "does not match the 3-D Secure transaction of payment_data")
  const found = findByServerTransId(ctx, serverTransId)
  if (!found || found.tx.id !== opened.txId || found.tx.merchant_id !== merchant.merchant_id) throw notFound("3-D Secure transaction not found")
  // Byte for byte: even a change that decodes to the same blob is not "unchanged".
  if (found.state.payment_data !== paymentData) throw invalid(req, "payment_data", "must be passed back unchanged from the action")
  return { ...found, flow: cardFlow(found.tx)! }
}

async function requestAuthenticationHandler(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const body = validateBody(req, requestAuthenticationRequest)
  const { tx, state, flow } = flowOf(ctx, req, merchant, body.payment_data, req.params.id, "three_ds_server_trans_id")
  const fingerprint = Buffer.from(body.fingerprint_result, "base64").toString("utf8") as "Y" | "N"
  return json(200, requestAuthentication(ctx, tx, flow, state, fingerprint))
}

async function authenticationCompletedHandler(ctx: SandboxContext, req: SandboxRequest): Promise<Reply> {
  const merchant = await requireMerchant(ctx, req)
  const body = validateBody(req, authenticationCompletedRequest)
  const { tx, state, flow } = flowOf(ctx, req, merchant, body.payment_data, body.session_id, "session_id")
  // trans_status is validated but decides nothing: the ACS's own record does (cards/three-ds-flow.ts).
  return json(200, completeChallenge(ctx, tx, flow, state))
}

export function registerThreeDsApi(router: Router, ctx: SandboxContext): void {
  router.add("POST", "/api/transactions/three-ds/authentication-completed", (req) => authenticationCompletedHandler(ctx, req), "api")
  router.add("POST", "/api/transactions/three-ds/:id/request-authentication", (req) => requestAuthenticationHandler(ctx, req), "api")
}
