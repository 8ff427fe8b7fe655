/**
 * Every hour, on workers (Medusa runs scheduled jobs only where the worker mode allows): deletes the plugin's
 * settled history older than retentionDays (PGS_RETENTION_DAYS, default 180) in bounded batches, keeping what open
 * follow-ups and unsettled payouts still need, and the card-testing guard's records (payments/card-testing). Policy:
 * src/modules/pgs/retention.ts; docs/retention.md.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../modules/pgs"
import { PgsNotConfiguredError } from "../modules/pgs/gateway"
import { pruneHistory, type PruneSummary } from "../modules/pgs/retention"
import type PgsModuleService from "../modules/pgs/service"
import { pruneGuardEvents } from "../payments/card-testing/alert"
import { pruneClients } from "../payments/card-testing/client-record"

/** Which client asked for a collection's sessions is kept a week: the gateway's declines for them come within seconds. */
const CLIENT_RECORD_DAYS = 7

export default async function prunePgsHistory(container: MedusaContainer, context?: { scheduledFor: Date }): Promise<PruneSummary | null> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    const { retentionDays } = container.resolve<PgsModuleService>(PGS_MODULE).followUpSettings()
    const knex = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
    // The time Medusa scheduled this run for is "now" (a test passes a later time instead of waiting for it).
    const now = context?.scheduledFor ?? new Date()
    const summary = await pruneHistory(knex, { now, retentionDays })
    // The card-testing guard's records (its counters expire by themselves, counters.ts).
    const day = 86_400_000
    Object.assign(summary, {
      card_testing_events: await pruneGuardEvents(knex, new Date(now.getTime() - retentionDays * day)),
      card_testing_clients: await pruneClients(knex, new Date(now.getTime() - CLIENT_RECORD_DAYS * day)),
    })
    if (Object.entries(summary).some(([k, n]) => k !== "more" && n > 0)) logger.info(`PGS retention: deleted ${JSON.stringify(summary)}`)
    return summary
  } catch (error) {
    if (error instanceof PgsNotConfiguredError || /invalid provider options/.test((error as Error).message)) return null
    logger.error(`PGS retention failed: ${(error as Error).message}`)
    return null
  }
}

export const config = { name: "pgs-prune-history", schedule: "23 * * * *" }
