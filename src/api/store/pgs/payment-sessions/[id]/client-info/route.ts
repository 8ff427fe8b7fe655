/**
 * POST /store/pgs/payment-sessions/:id/client-info { browser_info? }
 * Called by the shopper's browser right before cart completion. Records what a server-side completion cannot
 * know: the shopper's IP (from this request), the browser's 3-D Secure details (Direct API, vouchers) and the
 * payer as the cart knows them (email, billing address: read here from the cart, never from the body) or, for an
 * order's collection without a cart (money after checkout), as the order knows them; the redirect methods must
 * send the payer to the gateway. The session routes take the same in their body (`client_info`): one call fewer.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { clientInfoRequest } from "../../client-info-request"
import { respondWithSession } from "../../session-request"
import type { ClientInfoBody } from "../../validators"

export async function POST(req: MedusaRequest<ClientInfoBody>, res: MedusaResponse) {
  await respondWithSession(req, res, clientInfoRequest(req, req.validatedBody.browser_info))
}
