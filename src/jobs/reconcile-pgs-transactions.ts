/**
 * Every 5 minutes: re-read from the gateway what is not final (payment sessions waiting longer than
 * reconcileAfterMinutes, payouts PENDING) and apply final statuses through the webhook path; cancel orders whose
 * bank-redirect payment was abandoned (giveUpRedirectOrdersAfterHours). Policy: src/workflows/reconcile/.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PgsNotConfiguredError } from "../modules/pgs/gateway"
import { reconcileWithGateway, type ReconcileSummary } from "../workflows/reconcile"

export default async function reconcilePgsTransactions(
  container: MedusaContainer,
  context?: { scheduledFor: Date },
): Promise<ReconcileSummary | null> {
  try {
    // The time Medusa scheduled this run for is "now" (a test passes a later time instead of waiting for it).
    return await reconcileWithGateway(container, context?.scheduledFor ?? new Date())
  } catch (error) {
    const logger = container.resolve(ContainerRegistrationKeys.LOGGER)
    if (error instanceof PgsNotConfiguredError || /invalid provider options/.test((error as Error).message)) return null
    logger.error(`PGS reconciliation failed: ${(error as Error).message}`)
    return null
  }
}

export const config = { name: "pgs-reconcile-transactions", schedule: "*/5 * * * *" }
