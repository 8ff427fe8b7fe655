/** Queries and bodies of /admin/pgs/attention and the actions on its items. */
import { z } from "zod"
import { cursorParam, retiredOffsetParam } from "../../../../modules/pgs/keyset"

export const listAttentionQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  /** next_cursor of the page before (keyset pages: no offset). */
  cursor: cursorParam.optional(),
  offset: retiredOffsetParam,
  /** open: only what needs a person; all: also what the plugin settled by itself (the record). */
  show: z.enum(["open", "all"]).default("all"),
})
export type ListAttentionQuery = z.output<typeof listAttentionQuery>

export const rereadBody = z.object({ transaction_id: z.string().min(1).max(100) })
export type RereadBody = z.output<typeof rereadBody>
