/**
 * One run of a plugin job in its own Medusa process (`medusa exec`), as a worker runs it: TOPOLOGY_JOB names it
 * (reconcile | retry-webhooks), TOPOLOGY_NOW is the time the run is scheduled for (ISO; a drill passes a later time
 * instead of waiting minutes for a lease or a grace period). retry-webhooks runs until nothing is due. The
 * summary is printed as one line `TOPOLOGY_JOB_RESULT {...}`.
 */
import type { ExecArgs } from "@medusajs/framework/types"
import reconcilePgsTransactions from "../../../src/jobs/reconcile-pgs-transactions"
import retryPgsWebhookEvents from "../../../src/jobs/retry-pgs-webhook-events"

export default async function runJob({ container }: ExecArgs) {
  const scheduledFor = process.env.TOPOLOGY_NOW ? new Date(process.env.TOPOLOGY_NOW) : new Date()
  let result: unknown
  if (process.env.TOPOLOGY_JOB === "reconcile") result = await reconcilePgsTransactions(container, { scheduledFor })
  else if (process.env.TOPOLOGY_JOB === "retry-webhooks") {
    let total = 0
    for (let round = 0; round < 100; round++) {
      const { due } = await retryPgsWebhookEvents(container, { scheduledFor })
      total += due
      if (!due) break
    }
    result = { due: total }
  } else throw new Error(`TOPOLOGY_JOB must be reconcile or retry-webhooks, got ${process.env.TOPOLOGY_JOB}`)
  console.log(`TOPOLOGY_JOB_RESULT ${JSON.stringify(result)}`)
}
