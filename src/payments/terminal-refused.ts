/**
 * A terminal the gateway refuses: unknown (2013), inactive (2014), not accepting (2015, 2016) or its merchant inactive
 * (2017). Every payment on it fails the same way and the shopper can do nothing about it, while the store's log is the
 * only place that said so. The shop admin is told on Needs attention instead: one item per terminal ("Terminal
 * refused", key `terminal-refused:<terminal id>`), which counts the refused payment attempts in `checks`. Changing a terminal
 * setting closes the items it may have fixed (closeTerminalRefusals); the next refusal opens it again.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { generateEntityId } from "@medusajs/framework/utils"
import { GatewayValidationError, outcomeForCode } from "../gateway"
import { FOLLOW_UP_TABLE } from "../modules/pgs/models/follow-up"
import type { PgsSessionData } from "./session-data"

type Logger = { warn(message: string): void }

export const terminalRefusedKey = (terminalId: string) => `terminal-refused:${terminalId}`

const TERMINAL_CODES = new Set(["2013", "2014", "2015", "2016", "2017"])

export type TerminalRefusal = { terminalId: string; currency: string; code: string | null; words: string }

/** True for a processing code by which the gateway refuses the terminal or merchant, not the payment. */
export const isTerminalCode = (code: string | null | undefined) => !!code && TERMINAL_CODES.has(code)

/**
 * The gateway's refusal of the terminal in a request's error: before any transaction exists (a session), the
 * gateway refuses the terminal as a 422 on `terminal_id`, its code among the params. Null for any other error.
 */
export function terminalRefusalOf(error: unknown): Pick<TerminalRefusal, "code" | "words"> | null {
  if (!(error instanceof GatewayValidationError) || error.local) return null
  const field = error.fields.find((f) => f.property === "terminal_id")
  if (!field) return null
  return { code: field.params.find((p) => TERMINAL_CODES.has(p)) ?? null, words: field.message }
}

function noteOf(r: TerminalRefusal): string {
  // 2015 is also the gateway's answer for one method or feature the terminal does not have: other payments may work.
  const which = r.code === "2015" ? "Payments with some methods on terminal" : "Payments on terminal"
  return (
    `${which} ${r.terminalId} (${r.currency.toUpperCase()}) fail: the gateway answers "${r.words}"${r.code ? ` (${r.code})` : ""}, ` +
    'and shoppers are told that payments are unavailable. Correct the terminal in Settings → Payment Gateway (or PGS_TERMINAL_ID, ' +
    "when no terminal setting serves the currency), or ask the gateway to activate it or the method. Changing that terminal's settings closes this; " +
    "after a fix elsewhere (PGS_TERMINAL_ID, the gateway), choose Mark as handled. A payment refused again opens it again."
  )
}

/** Opens (or opens again) the terminal's item and counts the refusal. Never throws: the payment's own error is what matters. */
export async function rememberTerminalRefusal(knex: Knex | null, logger: Logger, refusal: TerminalRefusal): Promise<void> {
  if (!knex) return
  const now = new Date()
  try {
    await knex.raw(
      `insert into "${FOLLOW_UP_TABLE}" ("id", "key", "kind", "state", "checks", "currency_code", "note", "created_at", "updated_at")
       values (?, ?, 'terminal_refused', 'needs_person', 1, ?, ?, ?, ?)
       on conflict ("key") where "deleted_at" is null do update set
         "checks" = case when "${FOLLOW_UP_TABLE}"."state" = 'needs_person' then "${FOLLOW_UP_TABLE}"."checks" + 1 else 1 end,
         "created_at" = case when "${FOLLOW_UP_TABLE}"."state" = 'needs_person' then "${FOLLOW_UP_TABLE}"."created_at" else excluded."created_at" end,
         "state" = 'needs_person', "resolved_at" = null, "note" = excluded."note", "currency_code" = excluded."currency_code",
         "updated_at" = excluded."updated_at"`,
      [generateEntityId(undefined, "pgsfu"), terminalRefusedKey(refusal.terminalId), refusal.currency.toLowerCase(), noteOf(refusal), now, now],
    )
  } catch (cause) {
    logger.warn(`[pgs] a terminal the gateway refuses (${refusal.terminalId}) could not be listed for the admin: ${(cause as Error).message}`)
  }
}

/**
 * When `error` is the gateway refusing the terminal (terminalRefusalOf): logged, and told to the shop admin as above.
 * True when it was; the caller then tells the shopper that payments are unavailable, each in its own way.
 */
export async function tellTerminalRefusal(knex: Knex | null, logger: Logger, at: { terminalId: string; currency: string }, error: unknown): Promise<boolean> {
  const refusal = terminalRefusalOf(error)
  if (!refusal) return false
  logger.warn(`[pgs] the gateway refuses terminal ${at.terminalId}: ${refusal.words}${refusal.code ? ` (${refusal.code})` : ""}`)
  await rememberTerminalRefusal(knex, logger, { ...at, ...refusal })
  return true
}

/** A payment the gateway answered with a terminal's code (an authorization recorded as refused): told as above. */
export async function rememberRefusedTerminalOf(knex: Knex | null, logger: Logger, data: Pick<PgsSessionData, "terminal_id" | "currency_code" | "error">): Promise<void> {
  const code = data.error?.code
  if (!isTerminalCode(code)) return
  const words = outcomeForCode(code).merchantMessage.replace(/\s*\(.*$/, "")
  await rememberTerminalRefusal(knex, logger, { terminalId: data.terminal_id, currency: data.currency_code, code: code!, words })
}

/** What a terminal setting row decides: its terminal, the currencies it serves, and whether it is the fallback for all. */
type TerminalSettingReach = { terminal_id: string; currency_codes?: unknown; is_default?: boolean | null }

const CLOSED_NOTE = " The terminal settings for it were changed since; if payments are still refused, this opens again."

/**
 * After a terminal setting was written (`rows`: as it was and as it is): the open "Terminal refused" items it may have
 * fixed are closed, saying why — those of its terminals and of the currencies it serves; every item when it is or
 * was the default (it serves any currency no other row lists). Its sentence then says since when payments were
 * refused, not the last time (attention/view.ts): updated_at files it under its closing in the history list.
 */
export async function closeTerminalRefusals(knex: Knex, rows: TerminalSettingReach[]): Promise<number> {
  const query = knex(FOLLOW_UP_TABLE).where({ kind: "terminal_refused", state: "needs_person" }).whereNull("deleted_at")
  if (!rows.some((r) => r.is_default)) {
    const keys = rows.map((r) => terminalRefusedKey(r.terminal_id))
    const currencies = rows.flatMap((r) => (Array.isArray(r.currency_codes) ? r.currency_codes : [])).map((c) => String(c).toLowerCase())
    query.where((q) => q.whereIn("key", keys).orWhereIn("currency_code", currencies))
  }
  const now = new Date()
  return query.update({ state: "done", resolved_at: now, updated_at: now, note: knex.raw(`coalesce("note", '') || ?`, [CLOSED_NOTE]) })
}
