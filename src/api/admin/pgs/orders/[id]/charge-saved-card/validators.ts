import { z } from "zod"
import { browserInfo } from "../../../../../../gateway/schemas/common"

export const chargeSavedCardBody = z.strictObject({
  payment_collection_id: z.string().regex(/^pay_col_[0-9A-Za-z]{1,60}$/, "must be a payment collection id (pay_col_…)"),
  saved_card_id: z.string().regex(/^pgscard_[0-9A-Za-z]{1,60}$/, "must be a saved card id (pgscard_…)"),
  /** One per click, made by the dashboard: a retry of the same click (lost answer) sends it again. */
  idempotency_key: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, "must be 16 to 64 letters, digits, _ or -"),
  /** The gateway requires browser data on every card authorize; the dashboard sends its own (the customer is absent). */
  browser_info: browserInfo,
})
export type ChargeSavedCardBody = z.infer<typeof chargeSavedCardBody>
