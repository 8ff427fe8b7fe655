/**
 * Reconciliation, one run: watch what is unsettled, re-read what is due (bounded per run), give up orders abandoned
 * at the bank, settle captures and refunds a process died in the middle of (unfinished-operations.ts), list the
 * refunds an order cancel asked for that failed (failed-refunds.ts). Run by the scheduled job (src/jobs/reconcile-pgs-transactions.ts) and the admin's "Re-read" action.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { PGS_MODULE } from "../../modules/pgs"
import { dueChecks } from "../../modules/pgs/follow-ups"
import type PgsModuleService from "../../modules/pgs/service"
import { checkTransaction, type CheckDeps, type CheckResult } from "./check"
import { checkFailedRefunds } from "./failed-refunds"
import { recheckRefundsNotMade } from "./refunds-not-made"
import { giveUpAbandonedOrders } from "./give-up"
import { isOverload, GatewayPace, runPaced } from "./pace"
import { RECONCILE } from "./policy"
import { reconcileUnfinishedOperations } from "./unfinished-operations"
import { watchUnsettled } from "./watch"

export type ReconcileSummary = {
  watched: number
  checked: number
  applied: number
  gave_up: number
  captures_repaired: number
  captures_told: number
  refunds_repaired: number
  refunds_told: number
  /** Failed refunds found to be an order cancel's: listed as "Refund not made" (failed-refunds.ts). */
  failed_cancel_refunds: number
}

export function checkDeps(container: MedusaContainer): CheckDeps {
  const pgs = container.resolve<PgsModuleService>(PGS_MODULE)
  return {
    container,
    knex: container.resolve(ContainerRegistrationKeys.PG_CONNECTION),
    client: pgs.gateway(),
    logger: container.resolve(ContainerRegistrationKeys.LOGGER),
  }
}

export async function reconcileWithGateway(container: MedusaContainer, now: Date): Promise<ReconcileSummary> {
  const pgs = container.resolve<PgsModuleService>(PGS_MODULE)
  const settings = pgs.followUpSettings()
  const pace = new GatewayPace()
  const deps: CheckDeps = { ...checkDeps(container), onReadError: (error) => isOverload(error) && pace.overloaded(error) }
  const watched = await watchUnsettled(container, deps.knex, pgs, now, settings.reconcileAfterMinutes)
  const started = Date.now()
  let checked = 0
  let applied = 0
  // Batch after batch while checks are due and the run's time lasts. Each check is claimed first (claimDueCheck):
  // two workers share the backlog; a check another took is skipped, and a batch of only those ends the run.
  while (Date.now() - started < RECONCILE.runBudgetMs && !pace.stopped) {
    const due = await dueChecks(deps.knex, now, RECONCILE.batch)
    if (!due.length) break
    let claimed = 0
    await runPaced(due, pace, async (row) => {
      let result: CheckResult = "skipped"
      try {
        result = await checkTransaction(deps, row.id, now)
      } catch (error) {
        deps.logger.error(`PGS reconciliation: checking transaction ${row.transaction_id} failed: ${(error as Error).message}`)
      }
      if (result !== "skipped") claimed++
      if (result !== "unreadable" && result !== "skipped") pace.answered()
      if (result === "applied") applied++
    })
    checked += claimed
    if (!claimed) break
  }
  const gaveUp = settings.giveUpRedirectOrdersAfterHours > 0 ? await giveUpAbandonedOrders(deps, now, settings.giveUpRedirectOrdersAfterHours) : 0
  const captures = await reconcileUnfinishedOperations(deps, "capture", now)
  const refunds = await reconcileUnfinishedOperations(deps, "refund", now)
  const cancelRefunds = await checkFailedRefunds(deps, now)
  const raisedAgain = await recheckRefundsNotMade(deps, now)
  if (raisedAgain) deps.logger.warn(`PGS reconciliation: ${raisedAgain} "Refund not made" item(s) marked handled raised again: the refund is still not recorded`)
  const summary: ReconcileSummary = {
    watched,
    checked,
    applied,
    gave_up: gaveUp,
    captures_repaired: captures.repaired,
    captures_told: captures.told,
    refunds_repaired: refunds.repaired,
    refunds_told: refunds.told,
    failed_cancel_refunds: cancelRefunds,
  }
  if (applied || gaveUp || captures.repaired || captures.told || refunds.repaired || refunds.told || cancelRefunds) deps.logger.info(`PGS reconciliation: ${JSON.stringify(summary)}`)
  if (pace.stopped) deps.logger.warn("PGS reconciliation: the gateway is overloaded (429/5xx); the next run goes on")
  return summary
}
