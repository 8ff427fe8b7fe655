/**
 * Keyset pages for the admin lists (issue 25): a page goes on from the last row of the one before — "older than
 * (time, id)" — so reading page 500 costs what page 1 does, where OFFSET would walk past every earlier row. The
 * cursor is opaque to the dashboard: which part of the list (`s`, for lists made of several), the row's time
 * exactly as PostgreSQL wrote it (text, to the microsecond) and its id.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { z } from "zod"

export type Cursor = { s: number; at: string; id: string }

const cursorShape = z.strictObject({ s: z.int().min(0).max(9), at: z.string().min(1).max(40), id: z.string().min(1).max(100) })

export const encodeCursor = (c: Cursor) => Buffer.from(JSON.stringify(c)).toString("base64url")

/** The query parameter: a cursor this list gave, or a 400 naming it. */
export const cursorParam = z
  .string()
  .max(400)
  .transform((raw, ctx) => {
    try {
      const parsed = cursorShape.safeParse(JSON.parse(Buffer.from(raw, "base64url").toString("utf8")))
      if (parsed.success && !Number.isNaN(Date.parse(parsed.data.at))) return parsed.data
    } catch {
      // not base64url JSON: said below
    }
    ctx.addIssue({ code: "custom", message: "is not a cursor from this list (use next_cursor of the page before)" })
    return z.NEVER
  })

/**
 * `offset`, which these lists took before they became keyset pages: refused with a 400 that says what to send
 * instead, so a script that pages by offset stops with a reason rather than reading the first page for ever.
 */
export const retiredOffsetParam = z
  .unknown()
  .refine((value) => value === undefined, "is no longer taken: these lists are keyset pages; send the next_cursor of the page before as cursor")
  .optional()

/**
 * One part of a list, newest first, after the cursor when the cursor is in this part. `column` is the time column;
 * rows come back with `_cursor_at`, its exact text.
 */
export function newestFirst(q: Knex.QueryBuilder, knex: Knex, column: string, after: { at: string; id: string } | null, limit: number) {
  if (after) q.whereRaw(`("${column}", "id") < (?::timestamptz, ?)`, [after.at, after.id])
  return q
    .select(knex.raw(`"${column}"::text as _cursor_at`))
    .orderBy(column, "desc")
    .orderBy("id", "desc")
    .limit(limit)
}
