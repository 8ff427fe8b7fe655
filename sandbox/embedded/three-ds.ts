/**
 * The frame's 3-D Secure continuation calls, with the client key instead of a bearer token:
 *   POST /embedded/api/sessions/:id/three-ds/:serverTransId/request-authentication  {transaction_id, fingerprint_result, payment_data}
 *   POST /embedded/api/sessions/:id/three-ds/authentication-completed               {transaction_id, session_id, trans_status, payment_data}
 * Same checks and steps as the merchant endpoints (api/three-ds.ts, cards/three-ds-flow.ts), plus: the
 * transaction must belong to this session.
 */
import { z } from "zod"
import { authenticationCompletedRequest, requestAuthenticationRequest } from "../schemas"
import { cardFlow, findByServerTransId, openPaymentData } from "../cards/flow"
import { completeChallenge, requestAuthentication } from "../cards/three-ds-flow"
import type { SandboxContext } from "../core/context"
import { invalid, json, notFound, validateBody, type Reply, type SandboxRequest } from "../core/http"
import { requireClientSession, sessionTransaction } from "./client-session"

const txId = { transaction_id: z.string().min(1) }
const requestAuthenticationBody = requestAuthenticationRequest.extend(txId)
const authenticationCompletedBody = authenticationCompletedRequest.extend(txId)

/** The 3-D Secure state a payment_data names, after checking it is intact, current and this session's. */
function flowOf(ctx: SandboxContext, req: SandboxRequest, body: { transaction_id: string; payment_data: string }, serverTransId: string, idProperty: string) {
  const { session } = requireClientSession(ctx, req)
  const tx = sessionTransaction(ctx, session, body.transaction_id)
  const opened = openPaymentData(ctx, body.payment_data)
  if (!opened || opened.txId !== tx.id) throw invalid(req, "payment_data", "must be passed back unchanged from the action")
  if (opened.serverTransId !== serverTransId) throw invalid(req, idProperty, "does not match the 3-D Secure transaction of payment_data")
  const found = findByServerTransId(ctx, serverTransId)
  if (!found || found.tx.id !== tx.id || found.state.payment_data !== body.payment_data) throw notFound("3-D Secure transaction not found")
  return { tx, state: found.state, flow: cardFlow(tx)! }
}

export function embeddedRequestAuthentication(ctx: SandboxContext, req: SandboxRequest): Reply {
  const body = validateBody(req, requestAuthenticationBody)
  const { tx, state, flow } = flowOf(ctx, req, body, req.params.serverTransId, "three_ds_server_trans_id")
  const fingerprint = Buffer.from(body.fingerprint_result, "base64").toString("utf8") as "Y" | "N"
  return json(200, requestAuthentication(ctx, tx, flow, state, fingerprint))
}

export function embeddedAuthenticationCompleted(ctx: SandboxContext, req: SandboxRequest): Reply {
  const body = validateBody(req, authenticationCompletedBody)
  const { tx, state, flow } = flowOf(ctx, req, body, body.session_id, "session_id")
  return json(200, completeChallenge(ctx, tx, flow, state))
}
