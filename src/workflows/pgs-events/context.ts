import type { Logger, MedusaContainer } from "@medusajs/framework/types"
import type { PgsClient } from "../../gateway"
import type PgsModuleService from "../../modules/pgs/service"

/** What every event handler gets: the container (Medusa workflows, query), our module, the gateway client. */
export type EventContext = {
  container: MedusaContainer
  pgs: PgsModuleService
  client: PgsClient
  logger: Logger
}

/**
 * How an event ended, kept in the event log's `outcome`: `applied:*` changed Medusa, `ignored:*` was read and
 * deliberately left alone (foreign, stale, already applied, would move a payment backwards), `deferred:*` arrived
 * before what it depends on (a capture before the approval that creates the payment) and is applied after it;
 * `attention:*` is money the gateway took that no Medusa payment will record (a merchant must refund it).
 */
export type EventOutcome = `applied:${string}` | `ignored:${string}` | `deferred:${string}` | `attention:${string}`

/** The outcome's kind, the part before the colon (`applied`, `ignored`, `deferred`, `attention`, `handled`, `error`). */
export const outcomeKind = (outcome: string | null | undefined): string | null => (outcome ? outcome.split(":", 1)[0]! : null)

/** An event that arrived before what it depends on: run again once that is applied. */
export const isDeferred = (outcome: string | null | undefined) => outcomeKind(outcome) === "deferred"

/** An event that changed Medusa. */
export const isApplied = (outcome: string | null | undefined) => outcomeKind(outcome) === "applied"
