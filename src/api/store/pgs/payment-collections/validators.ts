import { z } from "zod"

const ORDER_ID = z.string().regex(/^order_[0-9A-Za-z]{1,64}$/, "order_id must be an order id such as order_01J…")

export const collectionQuery = z.object({ order_id: ORDER_ID.optional() })
export type CollectionQuery = z.infer<typeof collectionQuery>

export const collectionSessionBody = z.object({
  provider_id: z.string().regex(/^pp_[\w-]{1,100}$/, "provider_id must be a payment provider id such as pp_pgs_pgs"),
  /** Passed to the provider as session data; it keeps only keys it knows (storefront-data.ts). */
  data: z.record(z.string().max(100), z.unknown()).optional(),
})
export type CollectionSessionBody = z.infer<typeof collectionSessionBody>

export const applyBody = z.object({ payment_session_id: z.string().regex(/^payses_[0-9A-Za-z]{1,64}$/, "payment_session_id must be a payment session id such as payses_01J…") })
export type ApplyBody = z.infer<typeof applyBody>
