/**
 * What our own store and hook routes ask of a session through `data.pgs_request` (payments/server-requests.ts):
 * record the shopper's browser and payer, attach the transaction a gateway page made, record one the gateway
 * reported (webhook workflow), or continue 3-D Secure.
 * The caller's IP is recorded with any of them.
 */
import type { UpdatePaymentOutput } from "@medusajs/framework/types"
import { MedusaError } from "@medusajs/framework/utils"
import { clearedPublicBrowserInfo } from "../../payments/seal"
import type { ServerRequest } from "../../payments/server-requests"
import type { PgsSessionData } from "../../payments/session-data"
import { attachTransaction } from "./attach-transaction"
import type { ProviderDeps } from "./deps"
import { integrationOf } from "./integrations"
import { requireNext } from "./next-step"
import { definedOnly } from "./integrations/payer"

export async function serveRouteRequest(deps: ProviderDeps, current: PgsSessionData, request: ServerRequest): Promise<UpdatePaymentOutput> {
  // The browser data, IP and payer are dropped once the gateway approved (attempt.ts): a late or repeated request on
  // such a payment does not write them back, and a client-info call has nothing left to do.
  const approved = current.gateway_status === "APPROVED"
  if (request.kind === "client_info" && approved) return { data: current }
  const integration = integrationOf(current)
  if (request.kind === "client_info" && !request.payer && !request.browser_info && !request.customer_ip) return { data: current }
  // The payer's and the browser's details and the IP are personal data: sealed, not public session data (Medusa serves
  // that in store cart and order responses).
  const ip = request.customer_ip && !approved ? { customer_ip: request.customer_ip } : {}
  const told =
    request.kind === "client_info"
      ? { ...ip, ...(request.payer ? { payer: definedOnly(request.payer) } : {}), ...(request.browser_info ? { browser_info: request.browser_info } : {}) }
      : ip
  const withIp: PgsSessionData = Object.keys(told).length
    ? { ...current, ...clearedPublicBrowserInfo(current), sealed: deps.sealer.seal({ ...deps.sealer.open(current.sealed, current.session_id), ...told }, current.session_id) }
    : current
  switch (request.kind) {
    case "client_info":
      return { data: withIp }
    case "attach_transaction":
      return attachTransaction(deps, integration, withIp, request.transaction_id)
    case "record_transaction":
      return attachTransaction(deps, integration, withIp, request.transaction_id, "gateway")
    default:
      if (!integration.continue) {
        // No integration but the Direct API has a 3-D Secure step to continue: say which step the session is at.
        requireNext(withIp, request.kind === "request_authentication" ? "fingerprint" : "challenge")
        throw new MedusaError(MedusaError.Types.CONFLICT, "This payment session has no 3-D Secure step in progress")
      }
      return integration.continue(deps, withIp, request)
  }
}
