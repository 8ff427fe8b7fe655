/**
 * One run of plugin jobs in their own Medusa process (`medusa exec`), as a worker runs them: TOPOLOGY_JOB names
 * them (reconcile, retry-webhooks, or both comma-separated, run in that order), TOPOLOGY_NOW is the time the run is scheduled for (ISO; a drill passes a later time
 * instead of waiting minutes for a lease or a grace period). retry-webhooks runs until nothing is due. The
 * summary is printed as one line `TOPOLOGY_JOB_RESULT {...}`.
 */
import type { ExecArgs } from "@medusajs/framework/types"
import reconcilePgsTransactions from "../../../src/jobs/reconcile-pgs-transactions"
import retryPgsWebhookEvents from "../../../src/jobs/retry-pgs-webhook-events"

export default async function runJob({ container }: ExecArgs) {
  const scheduledFor = process.env.TOPOLOGY_NOW ? new Date(process.env.TOPOLOGY_NOW) : new Date()
  const result: Record<string, unknown> = {}
  for (const job of (process.env.TOPOLOGY_JOB ?? "").split(",")) {
    if (job === "reconcile") result.reconcile = await reconcilePgsTransactions(container, { scheduledFor })
    else if (job === "retry-webhooks") {
      let due = 0
      for (let round = 0; round < 100; round++) {
        const run = await retryPgsWebhookEvents(container, { scheduledFor })
        due += run.due
        if (!run.due) break
      }
      result.retry_webhooks = { due }
    } else throw new Error(`TOPOLOGY_JOB must name reconcile and/or retry-webhooks, got ${process.env.TOPOLOGY_JOB}`)
  }
  console.log(`TOPOLOGY_JOB_RESULT ${JSON.stringify(result)}`)
}
