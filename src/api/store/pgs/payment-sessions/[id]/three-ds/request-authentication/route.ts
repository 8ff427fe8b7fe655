/**
 * POST /store/pgs/payment-sessions/:id/three-ds/request-authentication { method_completed }
 * After the 3-D Secure method (fingerprint) step: the answer is the next step (challenge) or the final result.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { clientAddress } from "../../../../../../client-address"
import { respondWithSession } from "../../../session-request"
import type { RequestAuthenticationBody } from "../../../validators"

export async function POST(req: MedusaRequest<RequestAuthenticationBody>, res: MedusaResponse) {
  await respondWithSession(req, res, {
    kind: "request_authentication",
    method_completed: req.validatedBody.method_completed,
    customer_ip: clientAddress(req),
  })
}
