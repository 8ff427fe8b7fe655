/**
 * The shop admin's switch for a store under attack: for a number of hours, cards only for logged-in customers. (The
 * spec gives a merchant no way to ask the gateway for a 3-D Secure challenge on every card: docs/assumptions.md.)
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"

const LOCKDOWN_TABLE = "pgs_card_testing_lockdown"
const ROW = "store"

export const LOCKDOWN_MODES = ["logged_in_only"] as const
export type LockdownMode = (typeof LOCKDOWN_MODES)[number]
export type Lockdown = { mode: LockdownMode; until: string; set_by: string | null; set_at: string }

/** The switch while it is on, else null. */
export async function currentLockdown(knex: Knex, now = new Date()): Promise<Lockdown | null> {
  const row = await knex(LOCKDOWN_TABLE).where({ id: ROW }).where("until", ">", now).first()
  if (!row) return null
  return { mode: row.mode, until: new Date(row.until).toISOString(), set_by: row.set_by ?? null, set_at: new Date(row.set_at).toISOString() }
}

export async function setLockdown(knex: Knex, input: { mode: LockdownMode; hours: number; setBy: string | null }): Promise<Lockdown> {
  const now = new Date()
  const until = new Date(now.getTime() + input.hours * 3_600_000)
  await knex(LOCKDOWN_TABLE)
    .insert({ id: ROW, mode: input.mode, until, set_by: input.setBy, set_at: now })
    .onConflict("id")
    .merge(["mode", "until", "set_by", "set_at"])
  return { mode: input.mode, until: until.toISOString(), set_by: input.setBy, set_at: now.toISOString() }
}

export async function endLockdown(knex: Knex): Promise<void> {
  await knex(LOCKDOWN_TABLE).where({ id: ROW }).del()
}
