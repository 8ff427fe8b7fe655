/**
 * Plain reads over a knex connection, for code that cannot resolve the pgs module: the payment provider runs in
 * the payment module's container, which has `__pg_connection__` but not our service. Table names come from the
 * models so the two cannot drift. Writes stay in the module service.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { SAVED_CARD_TABLE, TERMINAL_SETTING_TABLE } from "./models/table-names"
import type { INTEGRATION_TYPES, TRANSACTION_TYPES } from "./models/terminal-setting"

export type ResolvedTerminal = {
  terminal_id: string
  transaction_type: (typeof TRANSACTION_TYPES)[number]
  integration_type: (typeof INTEGRATION_TYPES)[number]
  locale: string | null
  notification_url: string | null
  instalments: boolean
  css_variables: Record<string, string> | null
  /** Provider identifiers this terminal takes (null: all). */
  enabled_methods: string[] | null
  hosted_page_options: HostedPageOptions | null
  /** Per method identifier, its name per locale (only strings kept). */
  method_names: MethodNames
}

export type MethodNames = Record<string, Record<string, string>>

export type HostedPageOptions = { skip_three_ds?: boolean; cvv_less?: boolean; number_of_instalments?: number }

export type SavedCard = {
  id: string
  customer_id: string
  gateway_customer_id: string
  payment_method_id: string
  brand: string | null
  masked: string | null
  last_4: string | null
  exp_month: number | null
  exp_year: number | null
  status: "ACTIVE" | "DELETED"
}

type TerminalRow = ResolvedTerminal & { currency_codes: unknown; region_ids: unknown; is_default: boolean; created_at: Date }

const TERMINAL_COLUMNS = [
  "terminal_id", "transaction_type", "integration_type", "locale", "notification_url", "instalments",
  "css_variables", "enabled_methods", "hosted_page_options", "method_names", "currency_codes", "region_ids", "is_default", "created_at",
]
const CARD_COLUMNS = [
  "id", "customer_id", "gateway_customer_id", "payment_method_id", "brand", "masked", "last_4", "exp_month",
  "exp_year", "status",
]

const lowerList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string").map((v) => v.toLowerCase()) : []

/**
 * The terminal for a currency (and region): a row listing the currency and the region wins over one listing the
 * currency for any region (empty region_ids); else the default row; else null. Ties: the oldest row.
 */
export async function resolveTerminal(
  knex: Knex,
  input: { currency_code: string; region_id?: string | null },
): Promise<ResolvedTerminal | null> {
  const rows: TerminalRow[] = await knex(TERMINAL_SETTING_TABLE)
    .select(TERMINAL_COLUMNS)
    .whereNull("deleted_at")
    .orderBy("created_at", "asc")
  const currency = input.currency_code.toLowerCase()
  const region = input.region_id?.toLowerCase()
  const forCurrency = rows.filter((r) => lowerList(r.currency_codes).includes(currency))
  const pick =
    (region ? forCurrency.find((r) => lowerList(r.region_ids).includes(region)) : undefined) ??
    forCurrency.find((r) => lowerList(r.region_ids).length === 0) ??
    rows.find((r) => r.is_default)
  return pick ? toTerminal(pick) : null
}

function toTerminal(row: TerminalRow): ResolvedTerminal {
  return {
    terminal_id: row.terminal_id,
    transaction_type: row.transaction_type,
    integration_type: row.integration_type,
    locale: row.locale,
    notification_url: row.notification_url,
    instalments: row.instalments,
    css_variables: (row.css_variables as Record<string, string> | null) ?? null,
    enabled_methods: Array.isArray(row.enabled_methods) ? row.enabled_methods.filter((m): m is string => typeof m === "string") : null,
    hosted_page_options: (row.hosted_page_options as HostedPageOptions | null) ?? null,
    method_names: namesOf(row.method_names),
  }
}

/** The stored names, keeping only string values (the admin route validated them; the column is plain JSON). */
function namesOf(value: unknown): MethodNames {
  const names: MethodNames = {}
  if (!value || typeof value !== "object") return names
  for (const [method, byLocale] of Object.entries(value)) {
    if (!byLocale || typeof byLocale !== "object") continue
    const kept = Object.entries(byLocale).filter((e): e is [string, string] => typeof e[1] === "string")
    if (kept.length) names[method] = Object.fromEntries(kept)
  }
  return names
}

/** Whether a setting row of this terminal switches capture on fulfillment on. */
export async function terminalCapturesOnFulfillment(knex: Knex, terminalId: string): Promise<boolean> {
  const row = await knex(TERMINAL_SETTING_TABLE).where({ terminal_id: terminalId, capture_on_fulfillment: true }).whereNull("deleted_at").first("id")
  return !!row
}

/** The customer's usable saved cards (ACTIVE only), newest first. */
export async function listSavedCards(knex: Knex, input: { customer_id: string }): Promise<SavedCard[]> {
  const rows = await knex(SAVED_CARD_TABLE)
    .select(CARD_COLUMNS)
    .where({ customer_id: input.customer_id, status: "ACTIVE" })
    .whereNull("deleted_at")
    .orderBy("created_at", "desc")
  return rows.map(toCard)
}

/** The saved card with this gateway payment method id, whatever its status, or null. */
export async function findSavedCard(knex: Knex, input: { payment_method_id: string } | { id: string }): Promise<SavedCard | null> {
  const row = await knex(SAVED_CARD_TABLE)
    .select(CARD_COLUMNS)
    .where(input)
    .whereNull("deleted_at")
    .first()
  return row ? toCard(row) : null
}

function toCard(row: Record<string, unknown>): SavedCard {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v))
  return {
    id: String(row.id),
    customer_id: String(row.customer_id),
    gateway_customer_id: String(row.gateway_customer_id),
    payment_method_id: String(row.payment_method_id),
    brand: (row.brand as string | null) ?? null,
    masked: (row.masked as string | null) ?? null,
    last_4: (row.last_4 as string | null) ?? null,
    exp_month: num(row.exp_month),
    exp_year: num(row.exp_year),
    status: row.status === "DELETED" ? "DELETED" : "ACTIVE",
  }
}
