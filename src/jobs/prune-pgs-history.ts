/**
 * Every hour, on workers (Medusa runs scheduled jobs only where the worker mode allows): deletes the plugin's
 * settled history older than retentionDays (PGS_RETENTION_DAYS, default 180) in bounded batches, keeping what open
 * follow-ups and unsettled payouts still need. Policy: src/modules/pgs/retention.ts; docs/retention.md.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../modules/pgs"
import { PgsNotConfiguredError } from "../modules/pgs/gateway"
import { pruneHistory, type PruneSummary } from "../modules/pgs/retention"
import type PgsModuleService from "../modules/pgs/service"

export default async function prunePgsHistory(container: MedusaContainer, context?: { scheduledFor: Date }): Promise<PruneSummary | null> {
  const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
  try {
    const { retentionDays } = container.resolve<PgsModuleService>(PGS_MODULE).followUpSettings()
    const knex = container.resolve(ContainerRegistrationKeys.PG_CONNECTION)
    // The time Medusa scheduled this run for is "now" (a test passes a later time instead of waiting for it).
    const summary = await pruneHistory(knex, { now: context?.scheduledFor ?? new Date(), retentionDays })
    if (Object.entries(summary).some(([k, n]) => k !== "more" && n > 0)) logger.info(`PGS retention: deleted ${JSON.stringify(summary)}`)
    return summary
  } catch (error) {
    if (error instanceof PgsNotConfiguredError || /invalid provider options/.test((error as Error).message)) return null
    logger.error(`PGS retention failed: ${(error as Error).message}`)
    return null
  }
}

export const config = { name: "pgs-prune-history", schedule: "23 * * * *" }
