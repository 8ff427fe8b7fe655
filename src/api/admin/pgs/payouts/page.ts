/**
 * Which payouts one page of the list shows: newest first, after the cursor (keyset.ts), on the (status?,
 * created_at, id) indexes, so a store with years of payouts reads a page as fast as a new one.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { encodeCursor, newestFirst } from "../../../../modules/pgs/keyset"
import { PAYOUT_TABLE } from "../../../../modules/pgs/models"
import type { ListPayoutsQuery } from "./validators"

export async function payoutPage(knex: Knex, q: ListPayoutsQuery): Promise<{ ids: string[]; next_cursor: string | null }> {
  const base = knex(PAYOUT_TABLE).select("id").whereNull("deleted_at")
  if (q.status) base.where("status", q.status)
  if (q.reference) base.where("reference", q.reference)
  const rows: Array<{ id: string; _cursor_at: string }> = await newestFirst(base, knex, "created_at", q.cursor ?? null, q.limit + 1)
  const page = rows.slice(0, q.limit)
  const last = page[page.length - 1]
  return { ids: page.map((r) => r.id), next_cursor: rows.length > q.limit && last ? encodeCursor({ s: 0, at: last._cursor_at, id: last.id }) : null }
}
