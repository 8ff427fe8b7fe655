/**
 * POST /store/pgs/payment-sessions/:id/three-ds/authentication-completed { trans_status }
 * After the challenge (the gateway's notification page tells the storefront the trans_status).
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { clientAddress } from "../../../../../../client-address"
import { respondWithSession } from "../../../session-request"
import type { AuthenticationCompletedBody } from "../../../validators"

export async function POST(req: MedusaRequest<AuthenticationCompletedBody>, res: MedusaResponse) {
  await respondWithSession(req, res, {
    kind: "authentication_completed",
    trans_status: req.validatedBody.trans_status,
    customer_ip: clientAddress(req),
  })
}
