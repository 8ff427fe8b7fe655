/**
 * POST /hooks/pgs/three-ds/notification?session_id=… (form: cres)
 * The ACS posts the challenge result here when the provider overrides the DIRECT_API notification URL (https
 * only). We complete the authentication server-side (payment_data never leaves the server) and answer a page
 * that posts {type: "PGS_3DS_COMPLETE", session_id} to the storefront; its next cart completion sees the result.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { clientAddress } from "../../../../client-address"
import { MedusaError } from "@medusajs/framework/utils"
import { runSessionRequest } from "../../../../store/pgs/payment-sessions/session-request"
import { notificationQuery, type NotificationBody } from "../validators"
import { completionPage } from "./page"

export async function POST(req: MedusaRequest<NotificationBody>, res: MedusaResponse) {
  const query = notificationQuery.safeParse(req.query)
  if (!query.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, "session_id query parameter must be a payment session id")
  const sessionId = query.data.session_id
  let ok = true
  try {
    await runSessionRequest(req.scope, sessionId, { kind: "cres", cres: req.validatedBody.cres, customer_ip: clientAddress(req) })
  } catch (error) {
    ok = false
    const logger = req.scope.resolve("logger") as { warn(m: string): void }
    logger.warn(`[pgs] 3-D Secure notification for ${sessionId} failed: ${(error as Error).message}`)
  }
  res.status(ok ? 200 : 400).setHeader("content-type", "text/html; charset=utf-8").send(completionPage(sessionId, ok))
}
