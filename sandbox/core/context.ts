/** What every sandbox module gets: options, keys, state, merchants, URLs, webhooks, faults, counters. */
import type { ResolvedOptions } from "./config"
import type { SandboxKeys } from "./keys"
import type { SandboxStore } from "./store"
import type { Merchant, Terminal } from "./types"
import type { WebhookDispatcher } from "../webhooks/dispatcher"
import type { FaultInjector } from "./faults"
import type { PayoutSettler } from "../apm/payout-settle"

export type SandboxContext = {
  options: ResolvedOptions
  keys: SandboxKeys
  store: SandboxStore
  merchants: Map<string, Merchant>
  merchantByClientId(clientId: string): Merchant | undefined
  merchantByClientKey(clientKey: string): Merchant | undefined
  /** Filled in once the server listens. */
  urls: { base: string; auth: string }
  webhooks: WebhookDispatcher
  faults: FaultInjector
  /** Settles pending payouts after options.payoutSettleAfterMs (when above 0). */
  payouts: PayoutSettler
  stats: { tokenRequests: number; requests: Record<string, number> }
  /** Tokens issued before this epoch-ms are refused (control: POST /_sandbox/tokens/revoke). */
  revokedBefore: number
}

/** Why a terminal refuses a transaction, as processing codes 2013-2017. */
export type TerminalRefusal = { processing_code: "2013" | "2014" | "2015" | "2017"; message: string }

/**
 * Check merchant and terminal before a transaction is created: unknown terminal (2013), inactive (2014),
 * not accepting or missing the feature/method (2015), inactive merchant (2017).
 */
export function checkTerminal(
  merchant: Merchant,
  terminalId: string,
  need: { feature?: string; method?: string } = {},
): { terminal: Terminal } | { refusal: TerminalRefusal } {
  if (!merchant.active) return { refusal: { processing_code: "2017", message: "Merchant Inactive" } }
  const terminal = merchant.terminals.find((t) => t.terminal_id === terminalId)
  if (!terminal) return { refusal: { processing_code: "2013", message: "Terminal Not Found" } }
  if (!terminal.active) return { refusal: { processing_code: "2014", message: "Terminal Inactive" } }
  if (!terminal.accepting) return { refusal: { processing_code: "2015", message: "Terminal Not Accepting" } }
  if (need.feature && !terminal.features.includes(need.feature))
    return { refusal: { processing_code: "2015", message: `Terminal Not Accepting: ${need.feature} is not enabled` } }
  if (need.method && !terminal.methods.includes(need.method))
    return { refusal: { processing_code: "2015", message: `Terminal Not Accepting: ${need.method} is not enabled` } }
  return { terminal }
}
