/**
 * POST /hooks/pgs/three-ds/notification?session_id=… (form: cres)
 * The ACS posts the challenge result here when the provider overrides the DIRECT_API notification URL (https
 * only). The cres is only the signal to ask the gateway (its 3-D Secure server decides from what its ACS recorded):
 * a session not waiting for a challenge, or a cres for another authentication, is refused (409) before the gateway
 * is asked; a session the gateway still holds at the challenge is told so (409). The page answered posts
 * {type: "PGS_3DS_COMPLETE", session_id, ok} to the exact origin of the page that framed the challenge.
 */
import type { MedusaRequest, MedusaResponse } from "@medusajs/framework/http"
import { clientAddress } from "../../../../client-address"
import { setPageHeaders } from "../../../../page-headers"
import { MedusaError } from "@medusajs/framework/utils"
import { retrievePgsSession, runSessionRequest } from "../../../../store/pgs/payment-sessions/session-request"
import { notificationQuery, type NotificationBody } from "../validators"
import { completionPage, type Completion } from "./page"
import { parentOrigin } from "./parent-origin"
import { refusalStatus } from "./refusal-status"

export async function POST(req: MedusaRequest<NotificationBody>, res: MedusaResponse) {
  const query = notificationQuery.safeParse(req.query)
  if (!query.success) throw new MedusaError(MedusaError.Types.INVALID_DATA, "session_id query parameter must be a payment session id")
  const sessionId = query.data.session_id
  const answer = (status: number, completion: Omit<Completion, "sessionId">) => {
    // Framed by the challenge's parent page only (the page that gets the message); nosniff, no Referer (page-headers.ts).
    setPageHeaders(res, { framedBy: completion.parentOrigin, inlineScript: true })
    return res.status(status).send(completionPage({ sessionId, ...completion }))
  }
  let origin: string | null = null
  try {
    const session = await retrievePgsSession(req.scope, sessionId)
    origin = parentOrigin(req.scope, session.data)
    const updated = await runSessionRequest(req.scope, sessionId, { kind: "cres", cres: req.validatedBody.cres, customer_ip: clientAddress(req) })
    if (updated.status === "requires_more")
      return answer(409, { ok: false, words: "Your bank has not confirmed this payment yet.", parentOrigin: origin })
    return answer(200, { ok: true, words: "Authentication complete. You can close this window.", parentOrigin: origin })
  } catch (error) {
    const status = refusalStatus(error)
    const logger = req.scope.resolve("logger") as { warn(m: string): void; error(m: string): void }
    // A 4xx is the caller's input; a 500 is ours to look at (the database, a seal, a bug).
    if (status === 500) logger.error(`[pgs] 3-D Secure notification for ${sessionId} failed: ${(error as Error)?.stack ?? String(error)}`)
    else logger.warn(`[pgs] 3-D Secure notification for ${sessionId} refused (${status}): ${(error as Error).message}`)
    // The provider's reasons name the step, never a secret; anything else is not told to the browser.
    const words = error instanceof MedusaError && status < 500 ? error.message : "Authentication could not be completed."
    return answer(status, { ok: false, words, parentOrigin: origin })
  }
}
