/**
 * Payment sessions of ours that Medusa deleted (models/retired-session.ts): recorded by the provider when Medusa
 * deletes one, read when the gateway later reports money taken for it. The first record of a session wins.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import { RETIRED_SESSION_TABLE } from "./models/retired-session"

export type RetiredSession = {
  session_id: string
  reference: string
  terminal_id: string | null
  transaction_id: string | null
  amount_minor: number
  currency_code: string
  /** The order whose payment collection held it (a pay link's, say); null for a cart's before its order. */
  order_id: string | null
}

export async function recordRetiredSession(knex: Knex, session: RetiredSession): Promise<void> {
  const now = new Date()
  await knex(RETIRED_SESSION_TABLE)
    .insert({
      ...session,
      id: generateEntityId(undefined, "pgsrs"),
      raw_amount_minor: JSON.stringify({ value: String(session.amount_minor), precision: 20 }),
      retired_at: now,
      created_at: now,
      updated_at: now,
    })
    .onConflict(knex.raw('("session_id") where "deleted_at" is null'))
    .ignore()
}

export async function findRetiredSession(knex: Knex, sessionId: string): Promise<RetiredSession | null> {
  const row = await knex(RETIRED_SESSION_TABLE).where({ session_id: sessionId }).whereNull("deleted_at").first()
  return row ? { ...row, amount_minor: Number(row.amount_minor) } : null
}
