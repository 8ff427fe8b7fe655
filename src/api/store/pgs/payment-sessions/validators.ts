/** Bodies of the store routes that continue a PGS payment session (checked by validateAndTransformBody). */
import { z } from "zod"
import { browserInfo, TRANS_STATUSES } from "../../../../gateway/schemas"

// "." and ".." would name another of the gateway's paths once put into the status path (the requester refuses them too).
const TRANSACTION_ID = z
  .string()
  .min(1)
  .max(100)
  .refine((id) => id !== "." && id !== "..", "must be the gateway's transaction id, not a path segment")
export const attachTransactionBody = z.object({ transaction_id: TRANSACTION_ID })
export type AttachTransactionBody = z.infer<typeof attachTransactionBody>

/**
 * Medusa's cart completion may name the transaction the card fields made, attached before the cart is completed
 * (attach-on-completion.ts); other keys are Medusa's (it reads none) and pass untouched.
 */
export const completionBody = z.object({
  pgs_transaction: z
    .strictObject({
      payment_session_id: z.string().regex(/^payses_[0-9A-Za-z]{1,64}$/, "must be a payment session id such as payses_01J…"),
      transaction_id: TRANSACTION_ID,
    })
    .optional(),
})
export type CompletionBody = z.infer<typeof completionBody>

export const clientInfoBody = z.object({ browser_info: browserInfo.optional() })
export type ClientInfoBody = z.infer<typeof clientInfoBody>

export const requestAuthenticationBody = z.object({
  /** Whether the 3-D Secure method (fingerprint) iframe was submitted; false when there was no method URL. */
  method_completed: z.boolean(),
})
export type RequestAuthenticationBody = z.infer<typeof requestAuthenticationBody>

export const authenticationCompletedBody = z.object({ trans_status: z.enum(TRANS_STATUSES) })
export type AuthenticationCompletedBody = z.infer<typeof authenticationCompletedBody>
