/**
 * Writing terminal settings: one default at a time, JSON columns passed as they are. A write closes the "Terminal
 * refused" items (payments/terminal-refused.ts) of what the row served before and serves after: the admin changed
 * where those payments go.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { closeTerminalRefusals } from "../../../../../payments/terminal-refused"
import type PgsModuleService from "../../../../../modules/pgs/service"
import type { TerminalRow } from "../view"
import type { CreateTerminalBody, UpdateTerminalBody } from "../validators"

// The DML types JSON columns as records; ours are arrays and records, which the column stores as given.
type Write = (data: Record<string, unknown>) => Promise<TerminalRow>

/** One default terminal: the row just marked default takes over from any other. */
async function clearOtherDefaults(pgs: PgsModuleService, keepId: string) {
  const others = await pgs.listPgsTerminalSettings({ is_default: true })
  const stale = others.filter((t) => t.id !== keepId)
  if (stale.length) await pgs.updatePgsTerminalSettings(stale.map((t) => ({ id: t.id, is_default: false })))
}

export async function createTerminal(pgs: PgsModuleService, knex: Knex, body: CreateTerminalBody): Promise<TerminalRow> {
  const created = await (pgs.createPgsTerminalSettings as unknown as Write).call(pgs, body)
  if (created.is_default) await clearOtherDefaults(pgs, created.id)
  await closeTerminalRefusals(knex, [created])
  return created
}

export async function updateTerminal(pgs: PgsModuleService, knex: Knex, before: TerminalRow, patch: UpdateTerminalBody): Promise<TerminalRow> {
  const updated = await (pgs.updatePgsTerminalSettings as unknown as Write).call(pgs, { id: before.id, ...patch })
  if (updated.is_default) await clearOtherDefaults(pgs, updated.id)
  await closeTerminalRefusals(knex, [before, updated])
  return updated
}

export async function deleteTerminal(pgs: PgsModuleService, knex: Knex, row: TerminalRow): Promise<void> {
  await pgs.deletePgsTerminalSettings(row.id)
  await closeTerminalRefusals(knex, [row])
}
