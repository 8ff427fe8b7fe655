/**
 * A taxed payment's cent made to drift, as a workflow beside the dashboard can: an operation made in the gateway's
 * dashboard (its message held), the plugin's own operation held on its way to the gateway while a workflow's
 * operation of the same payment is sent as its share after it, then the first refused by the gateway (less is left
 * than it asks) and its row deleted by Medusa.
 */
import type { StoreSuite } from "./store"
import { manageAtGateway, waitFor } from "./webhooks"

type Drift = {
  session: { data: unknown }
  transactionId: string
  dashboard: { type: "CAPTURE" | "REFUND"; amountMinor: number }
  /** The operation held at the gateway (the admin's, through Medusa's route), refused in the end. */
  held(): Promise<{ status: number }>
  /** What runs while it is held: the workflow's operation. */
  beside(): Promise<unknown>
}

/** Returns the dashboard operation's transaction id; its message is released at the end. */
export async function driftACent(s: StoreSuite, drift: Drift): Promise<string> {
  const manageCalls = async () => (await s.sandbox.control("GET", "/_sandbox/stats")).body.requests["POST /api/transactions/manage"] ?? 0
  await s.sandbox.control("POST", "/_sandbox/settings", { webhooks_held: true })
  try {
    const dashboard = await manageAtGateway(s, drift.session, drift.transactionId, drift.dashboard.type, drift.dashboard.amountMinor)
    await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/manage", kind: "latency", latency_ms: 1500, phase: "before", count: 1 })
    const before = await manageCalls()
    const held = drift.held()
    // The held operation's call is at the gateway before the other is made.
    await waitFor(async () => (await manageCalls()) > before, { what: "the held operation at the gateway" })
    await drift.beside()
    expect((await held).status).toBeGreaterThanOrEqual(400)
    return dashboard
  } finally {
    await s.sandbox.control("DELETE", "/_sandbox/faults")
    await s.sandbox.control("POST", "/_sandbox/settings", { webhooks_held: false })
  }
}
