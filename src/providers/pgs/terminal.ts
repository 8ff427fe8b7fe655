/**
 * Which terminal serves a payment: the merchant's terminal settings (the pgs module's table, read with plain
 * queries because the provider lives in the payment module's container), else the provider options.
 */
import type { Knex } from "@medusajs/framework/mikro-orm/knex"
import { resolveTerminal, type ResolvedTerminal } from "../../modules/pgs/queries"
import type { PgsProviderOptions } from "../../modules/pgs/options"
import type { CardTransactionType } from "../../payments/session-data"

export type TerminalChoice = {
  terminal_id: string
  transaction_type: CardTransactionType
  integration_type: ResolvedTerminal["integration_type"]
  locale: string | null
  instalments: boolean
  css_variables: Record<string, string> | null
  enabled_methods: string[] | null
  hosted_page_options: ResolvedTerminal["hosted_page_options"]
}

type Warn = (message: string) => void

export async function chooseTerminal(knex: Knex | null, options: PgsProviderOptions, currencyCode: string, warn: Warn): Promise<TerminalChoice> {
  let row: ResolvedTerminal | null = null
  if (knex) {
    try {
      row = await resolveTerminal(knex, { currency_code: currencyCode })
    } catch (error) {
      // Before the module's migrations ran the table is missing: the options still make a working store.
      warn(`PGS terminal settings could not be read (${(error as Error).message}); using the provider options`)
    }
  }
  if (row) return { ...row, locale: row.locale ?? options.locale ?? null }
  return {
    terminal_id: options.defaultTerminalId,
    transaction_type: options.defaultTransactionType,
    integration_type: "EMBEDDED_FIELDS",
    locale: options.locale ?? null,
    instalments: false,
    css_variables: null,
    enabled_methods: null,
    hosted_page_options: null,
  }
}
