/**
 * A job runner: one long-lived Medusa process (`medusa exec`, booted once) that runs the plugin's jobs when asked,
 * as a worker runs them, one run at a time. Once booted it listens on a free port of 127.0.0.1, printed as the line
 * `TOPOLOGY_RUNNER_LISTENING <port>`. POST /run {"job": "reconcile" | "retry-webhooks" | "retry-webhooks,reconcile", "now": ISO time the run is
 * scheduled for (a drill passes a later time instead of waiting minutes for a lease or a grace period)} answers
 * the run's summary; retry-webhooks runs until nothing is due. POST /seed {"email", "password"} loads the demo's
 * catalogue and creates the admin user, what `medusa exec scripts/demo/seed.ts` and `medusa user` do, in this one
 * boot. POST /hold-operation-lock {"payment_id", "hold_ms"} holds the payment's capture/refund lock as the admin's
 * capture route does (one-operation.ts) for that long, and answers once it is released. A drill that kills a runner
 * (SIGKILL) mid-run kills the process that runs the job.
 */
import http from "node:http"
import type { ExecArgs, MedusaContainer } from "@medusajs/framework/types"
import { createUsersWorkflow } from "@medusajs/core-flows"
import { FeatureFlag, Modules } from "@medusajs/framework/utils"
import reconcilePgsTransactions from "../../../src/jobs/reconcile-pgs-transactions"
import retryPgsWebhookEvents from "../../../src/jobs/retry-pgs-webhook-events"
import seedDemo from "../../../scripts/demo/seed"
import { underOperationLock } from "../../../src/api/admin/pgs/orders/operation-lock"

async function runJobs(container: MedusaContainer, jobs: string, scheduledFor: Date) {
  const result: Record<string, unknown> = {}
  for (const job of jobs.split(",")) {
    if (job === "reconcile") result.reconcile = await reconcilePgsTransactions(container, { scheduledFor })
    else if (job === "retry-webhooks") {
      let due = 0
      for (let round = 0; round < 100; round++) {
        const run = await retryPgsWebhookEvents(container, { scheduledFor })
        due += run.due
        if (!run.due) break
      }
      result.retry_webhooks = { due }
    } else throw new Error(`job must name reconcile and/or retry-webhooks, got ${jobs}`)
  }
  return result
}

/** Holds the lock for `holdMs` (Medusa's route at work); throws, as the route's lock would, if the lease was lost. */
async function holdOperationLock(container: MedusaContainer, paymentId: string, holdMs: number) {
  const started = Date.now()
  await underOperationLock(container, paymentId, () => new Promise<void>((resolve) => setTimeout(resolve, holdMs)))
  return { held_ms: Date.now() - started }
}

/** The demo's catalogue, then an admin user as `medusa user -e -p` makes one (user, emailpass identity, link). */
async function seedStore(container: MedusaContainer, admin: { email: string; password: string }) {
  await seedDemo({ container, args: [] })
  const roles: string[] = []
  if (FeatureFlag.isFeatureEnabled("rbac")) {
    const [superAdmin] = await container.resolve(Modules.RBAC).listRbacRoles({ id: "role_super_admin" })
    if (superAdmin) roles.push(superAdmin.id)
  }
  const { result: users } = await createUsersWorkflow(container).run({ input: { users: [{ email: admin.email, roles } as { email: string }] } })
  const auth = container.resolve(Modules.AUTH)
  const { authIdentity, error } = await auth.register("emailpass", { body: admin })
  if (error || !authIdentity) throw new Error(`admin user: ${error}`)
  await auth.updateAuthIdentities({ id: authIdentity.id, app_metadata: { user_id: users[0]!.id } })
  return { user: users[0]!.id }
}

export default async function jobRunner({ container }: ExecArgs) {
  const server = http.createServer((req, res) => {
    let text = ""
    req.on("data", (d) => (text += d))
    req.on("end", async () => {
      try {
        const body = JSON.parse(text || "{}")
        const result =
          req.url === "/seed"
            ? await seedStore(container, body)
            : req.url === "/hold-operation-lock"
              ? await holdOperationLock(container, String(body.payment_id), Number(body.hold_ms))
              : await runJobs(container, String(body.job), new Date(body.now))
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(result))
      } catch (error) {
        res.writeHead(500, { "content-type": "text/plain" }).end((error as Error).stack ?? String(error))
      }
    })
  })
  server.requestTimeout = 0 // a run may wait minutes for the gateway
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  console.log(`TOPOLOGY_RUNNER_LISTENING ${(server.address() as { port: number }).port}`)
  // `medusa exec` exits when this returns: serve until the suite stops this process.
  await new Promise<never>(() => {})
}
