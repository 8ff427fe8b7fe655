/** Bodies of the store routes that continue a PGS payment session (checked by validateAndTransformBody). */
import { z } from "zod"
import { browserInfo, TRANS_STATUSES } from "../../../../gateway/schemas"

export const attachTransactionBody = z.object({ transaction_id: z.string().min(1).max(100) })
export type AttachTransactionBody = z.infer<typeof attachTransactionBody>

export const clientInfoBody = z.object({ browser_info: browserInfo.optional() })
export type ClientInfoBody = z.infer<typeof clientInfoBody>

export const requestAuthenticationBody = z.object({
  /** Whether the 3-D Secure method (fingerprint) iframe was submitted; false when there was no method URL. */
  method_completed: z.boolean(),
})
export type RequestAuthenticationBody = z.infer<typeof requestAuthenticationBody>

export const authenticationCompletedBody = z.object({ trans_status: z.enum(TRANS_STATUSES) })
export type AuthenticationCompletedBody = z.infer<typeof authenticationCompletedBody>
