import { z } from "zod"
import { browserInfo } from "../../../../gateway/schemas"

const ORDER_ID = z.string().regex(/^order_[0-9A-Za-z]{1,64}$/, "order_id must be an order id such as order_01J…")

export const collectionQuery = z.object({ order_id: ORDER_ID.optional() })
export type CollectionQuery = z.infer<typeof collectionQuery>

export const collectionSessionBody = z.object({
  provider_id: z.string().regex(/^pp_[\w-]{1,100}$/, "provider_id must be a payment provider id such as pp_pgs_pgs"),
  /** Passed to the provider as session data; it keeps only keys it knows (storefront-data.ts). */
  data: z.record(z.string().max(100), z.unknown()).optional(),
  /**
   * The browser's details, recorded on the new session as POST /store/pgs/payment-sessions/:id/client-info records
   * them (with the IP and payer the server reads itself): a redirect method's Pay needs no second call. Strict: the
   * IP and the payer are never taken from a browser.
   */
  client_info: z.strictObject({ browser_info: browserInfo.optional() }).optional(),
})
export type CollectionSessionBody = z.infer<typeof collectionSessionBody>

/** A cart's session: `reuse` answers the cart's unpaid card-fields session again, when it has one (carts/[id]/payment-sessions/reusable.ts). */
export const cartSessionBody = collectionSessionBody.extend({ reuse: z.boolean({ error: "reuse must be true or false" }).optional() })
export type CartSessionBody = z.infer<typeof cartSessionBody>

export const applyBody = z.object({ payment_session_id: z.string().regex(/^payses_[0-9A-Za-z]{1,64}$/, "payment_session_id must be a payment session id such as payses_01J…") })
export type ApplyBody = z.infer<typeof applyBody>
