/**
 * Everything the sandbox knows that a restart must not lose, as one JSON-ready object (--state-dir), and back.
 * `PERSISTED` and `NOT_PERSISTED` name every piece of state the sandbox holds; a test compares them with the
 * objects themselves, so a new kind of state cannot be added without deciding here whether it is kept.
 */
import type { SandboxContext } from "../core/context"
import type { StoreRecords } from "../core/store"
import type { Terminal } from "../core/types"
import type { Delivery } from "../webhooks/dispatcher"
import { exportCardFlowState, importCardFlowState, type CardFlowState } from "../cards/flow"
import { exportSimulatorMetadata, importSimulatorMetadata } from "../embedded/simulator-metadata"
import { canceledPageIds, restoreCanceledPages } from "../apm/hosted-payment-page"

/** Raise when the shape below changes; a file of a newer version is refused, never read half-way. */
export const STATE_FORMAT_VERSION = 1
export const STATE_FORMAT = "pgs-sandbox-state"

export type SandboxSnapshot = {
  format: typeof STATE_FORMAT
  version: number
  /** Transactions (3-D Secure and ACS records, payouts and redirect flows live in each one's `flow`), sessions, customers, saved cards, hosted pages, the ledger. */
  store: StoreRecords
  webhooks: { endpoints: Record<string, string[]>; deliveries: Delivery[] }
  /** Switches made through the controls; credentials come from the start options (or --keys-dir), never from here. */
  merchants: Array<{ merchant_id: string; active: boolean; terminals: Terminal[] }>
  revoked_before: number
  card_flows: CardFlowState
  session_simulator_metadata: Record<string, Record<string, unknown>>
  canceled_hosted_pages: string[]
}

/** Every Map or array field of the stateful objects, and whether it is kept (the test holds this to the code). */
export const PERSISTED = {
  store: ["transactions", "sessions", "customers", "storedCards", "hostedPages", "ledger"],
  // Made again from the transactions and sessions on load (SandboxStore.restore).
  storeDerived: ["byReference", "sessionsByReference", "listeners"],
  webhooks: ["endpoints", "deliveries"],
  context: ["store", "merchants", "webhooks", "revokedBefore"],
  /** Module-level tables keyed by records: file → its tables. */
  modules: {
    "cards/flow.ts": ["cards", "byServerTransId", "secrets"],
    "embedded/simulator-metadata.ts": ["attached"],
    "apm/hosted-payment-page.ts": ["canceledPages"],
  },
} as const

/** State deliberately not kept, and why. */
export const NOT_PERSISTED = {
  // Timers are made again from the deliveries' next_attempt_at; held (out of order) deliveries are in `deliveries`.
  webhooks: ["timers", "held", "afterFirstAttempt", "onHold"],
  // Options come from the command line; faults and counters are a test's, for one run; keys and URLs are the start's.
  context: ["options", "keys", "urls", "faults", "payouts", "stats", "merchantByClientId", "merchantByClientKey"],
  modules: {
    "core/auth.ts": ["verified"], // a cache of verified tokens
    "embedded/static-files.ts": ["root"], // where the widget's files are
  },
} as const

export function takeSnapshot(ctx: SandboxContext): SandboxSnapshot {
  return {
    format: STATE_FORMAT,
    version: STATE_FORMAT_VERSION,
    store: ctx.store.records(),
    webhooks: { endpoints: Object.fromEntries(ctx.webhooks.endpoints), deliveries: ctx.webhooks.deliveries },
    merchants: [...ctx.merchants.values()].map((m) => ({ merchant_id: m.merchant_id, active: m.active, terminals: m.terminals })),
    revoked_before: ctx.revokedBefore,
    card_flows: exportCardFlowState(ctx),
    session_simulator_metadata: exportSimulatorMetadata(ctx),
    canceled_hosted_pages: canceledPageIds(ctx),
  }
}

/** Load a snapshot into a fresh context whose merchant exists already (its terminals' website is today's URL). */
export function applySnapshot(ctx: SandboxContext, snapshot: SandboxSnapshot): void {
  ctx.store.restore(snapshot.store)
  for (const saved of snapshot.merchants) {
    const merchant = ctx.merchants.get(saved.merchant_id)
    if (!merchant) continue
    merchant.active = saved.active
    merchant.terminals = saved.terminals.map((t) => ({ ...t, website: ctx.urls.base }))
  }
  ctx.revokedBefore = snapshot.revoked_before
  importCardFlowState(ctx, snapshot.card_flows)
  importSimulatorMetadata(ctx, snapshot.session_simulator_metadata)
  restoreCanceledPages(ctx, snapshot.canceled_hosted_pages)
  ctx.webhooks.restore(snapshot.webhooks.endpoints, snapshot.webhooks.deliveries)
  ctx.payouts.rescheduleAll()
}
