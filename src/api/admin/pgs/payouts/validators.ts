/** Bodies and queries of /admin/pgs/payouts. */
import { z } from "zod"
import { cursorParam, retiredOffsetParam } from "../../../../modules/pgs/keyset"
import { PAYOUT_STATUSES } from "../../../../modules/pgs/models"

export { payoutInput as createPayoutBody, type PayoutInput as CreatePayoutBody } from "../../../../workflows/payouts/input"

export const listPayoutsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** next_cursor of the page before (keyset pages: no offset). */
  cursor: cursorParam.optional(),
  offset: retiredOffsetParam,
  status: z.enum(PAYOUT_STATUSES).optional(),
  reference: z.string().min(1).max(80).optional(),
})
export type ListPayoutsQuery = z.output<typeof listPayoutsQuery>
