/**
 * POST /store/pgs/payment-sessions/:id/client-info { browser_info? }
 * Called by the shopper's browser right before cart completion. Records what a server-side completion cannot
 * know: the shopper's IP (from this request), the browser's 3-D Secure details (Direct API, vouchers) and the
 * payer as the cart knows them (email, billing address: read here from the cart, never from the body) or, for an
 * order's collection without a cart (money after checkout), as the order knows them; the redirect methods must
 * send the payer to the gateway.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { clientAddress } from "../../../../../client-address"
import { cartPayerOf } from "../../cart-payer"
import { orderPayerOf } from "../../../../../../payments/order-payer"
import { respondWithSession } from "../../session-request"
import type { ClientInfoBody } from "../../validators"

export async function POST(req: MedusaRequest<ClientInfoBody>, res: MedusaResponse) {
  await respondWithSession(req, res, async (session) => ({
    kind: "client_info",
    browser_info: req.validatedBody.browser_info,
    customer_ip: clientAddress(req),
    payer: (await cartPayerOf(req.scope, session.payment_collection_id)) ?? (await orderPayerOf(req.scope, session.payment_collection_id)),
  }))
}
