/**
 * POST /store/pgs/payment-sessions/:id/client-info { browser_info }
 * Direct API: the shopper's browser records its 3-D Secure browser data and, from the request itself, the
 * shopper's IP, so cart completion (a server call without the browser's details) can authorize with them.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { respondWithSession, shopperIp } from "../../session-request"
import type { ClientInfoBody } from "../../validators"

export async function POST(req: MedusaRequest<ClientInfoBody>, res: MedusaResponse) {
  await respondWithSession(req, res, {
    kind: "client_info",
    browser_info: req.validatedBody.browser_info,
    customer_ip: shopperIp(req.ip),
  })
}
