/**
 * What the shopper's browser tells about a payment session before it is completed, as a server request: the
 * browser's 3-D Secure details from the body, the IP from the request (never from the body), and the payer as the
 * cart (or, for money after checkout, the order) knows them. The client-info route sends it alone; the session
 * routes send it with the new session (`client_info` in their body), so a redirect method's Pay is one call fewer.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import type { BrowserInfo } from "../../../../gateway/schemas"
import { orderPayerOf } from "../../../../payments/order-payer"
import { clientAddress } from "../../../client-address"
import { cartPayerOf } from "./cart-payer"
import { answeredSessionError, runSessionRequest, type RequestFor, type SessionView } from "./session-request"

export const clientInfoRequest =
  (req: MedusaRequest, browser_info?: BrowserInfo): RequestFor =>
  async (session) => ({
    kind: "client_info",
    browser_info,
    customer_ip: clientAddress(req),
    payer: (await cartPayerOf(req.scope, session.payment_collection_id)) ?? (await orderPayerOf(req.scope, session.payment_collection_id)),
  })

/**
 * The session just made, with the body's client info recorded on it (under the session's lock, as the client-info
 * route does); the session as made when the body has none. Null when the answer was given here: 409 or 503 (the
 * session exists; the next attempt makes a fresh one).
 */
export async function withClientInfo<S extends SessionView>(req: MedusaRequest, res: MedusaResponse, session: S, info?: { browser_info?: BrowserInfo }): Promise<S | null> {
  if (!info) return session
  try {
    const recorded = await runSessionRequest(req.scope, session.id, clientInfoRequest(req, info.browser_info))
    return { ...session, status: recorded.status, data: recorded.data }
  } catch (error) {
    if (answeredSessionError(res, error)) return null
    throw error
  }
}
