import { z } from "zod"

export const issuePayLinkBody = z.strictObject({
  payment_collection_id: z.string().regex(/^pay_col_[0-9A-Za-z]{1,60}$/, "must be a payment collection id (pay_col_…)"),
})
export type IssuePayLinkBody = z.infer<typeof issuePayLinkBody>
