/**
 * Nothing stuck, nothing lost (issue 17): with the gateway's webhooks never arriving, the reconciliation job
 * (src/jobs/reconcile-pgs-transactions.ts) re-reads what is not final from the status endpoint and applies it
 * through the webhook path, once; money no order keeps goes back once; an order abandoned at the bank is given up;
 * a decline racing the shopper's completion never leaves an order awaiting payment. The job is run directly with
 * the time it runs for (a later "now" instead of waiting).
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import reconcilePgsTransactions from "../../../src/jobs/reconcile-pgs-transactions"
import { recordGatewayRead } from "../../../src/workflows/reconcile/gateway-read-event"
import { PGS_MODULE } from "../../../src/modules/pgs"
import type PgsModuleService from "../../../src/modules/pgs/service"
import { storeBody } from "../support/store"
import { orderPayments, providerId, sessionStatus, startRedirect } from "../support/redirect"
import { eventRows, waitFor } from "../support/webhooks"
import { bankPayout, getPayout, postPayout } from "../support/payouts"

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const BANK = "pgs-open-banking"

export default storeBody("reconciling with the gateway", (s) => {
  const runJob = (msFromNow: number) => reconcilePgsTransactions(s.container(), { scheduledFor: new Date(Date.now() + msFromNow) })
  const knex = () => s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
  const followUps = (where: Record<string, unknown>) => knex()("pgs_follow_up").where(where).orderBy("created_at")
  const gatewayChildren = async (transactionId: string) =>
    (await s.sandbox.control("GET", `/_sandbox/transactions/${transactionId}`)).body.children as Array<{ transaction_type: string; status: string; amount: number }>
  const decide = (transactionId: string, status: string) => s.sandbox.control("POST", `/_sandbox/transactions/${transactionId}/outcome`, { status })

  /** A bank-redirect order awaiting its payment: the shopper came back before the bank decided. */
  async function orderAwaitingBank() {
    const r = await startRedirect(s, BANK)
    const done = await s.completeCart(r.cartId)
    expect(done.data.type).toBe("order")
    return { ...r, orderId: done.data.order.id as string }
  }

  describe("while the webhook endpoint is unreachable", () => {
    beforeEach(async () => {
      // The gateway cannot reach the store for the whole retry window: no webhook ever arrives.
      await s.sandbox.control("DELETE", "/_sandbox/webhooks")
    })
    afterEach(async () => {
      await s.sandbox.control("POST", "/_sandbox/webhooks", { url: s.webhookUrl })
    })

    it("completes an order awaiting a bank payment from the status endpoint, once", async () => {
      const r = await orderAwaitingBank()
      await decide(r.transactionId, "APPROVED")

      // Too young to re-read: the webhook may still come.
      expect(await runJob(0)).toMatchObject({ applied: 0 })
      const first = await runJob(16 * MINUTE)
      expect(first).toMatchObject({ applied: 1 })
      const { payments, collection } = await orderPayments(s, r.orderId)
      expect(payments).toHaveLength(1)
      expect(payments[0].captured_at).not.toBeNull()
      expect(collection.status).toBe("completed")
      const [event] = await eventRows(s, { subject_id: r.transactionId })
      expect(event).toMatchObject({ outcome: "applied:captured" })
      const [followUp] = await followUps({ transaction_id: r.transactionId })
      expect(followUp).toMatchObject({ kind: "reconciled", state: "done", last_status: "APPROVED" })
      expect(followUp.note).toMatch(/webhook had not come/)

      // Later runs change nothing.
      expect(await runJob(2 * HOUR)).toMatchObject({ applied: 0 })
      expect((await orderPayments(s, r.orderId)).payments).toHaveLength(1)
      expect(await eventRows(s, { subject_id: r.transactionId })).toHaveLength(1)
    })

    it("marks the order's payment failed when the gateway declined, and backs off while it is still pending", async () => {
      const r = await orderAwaitingBank()
      expect(await runJob(16 * MINUTE)).toMatchObject({ applied: 0 })
      const [watching] = await followUps({ transaction_id: r.transactionId })
      expect(watching).toMatchObject({ kind: "check", state: "watching", checks: 1, last_status: "PENDING" })
      // Not re-read before its backoff has passed.
      expect(await runJob(17 * MINUTE)).toMatchObject({ checked: 0 })

      await decide(r.transactionId, "DECLINED")
      expect(await runJob(22 * MINUTE)).toMatchObject({ checked: 1, applied: 1 })
      const { collection, payments } = await orderPayments(s, r.orderId)
      expect(payments).toHaveLength(0)
      expect(collection.status).toBe("failed")
      expect((await sessionStatus(s, r.sessionId)).status).toBe("error")
    })

    it("applies a status read once when the process stopped after recording it", async () => {
      const r = await orderAwaitingBank()
      await decide(r.transactionId, "APPROVED")
      // A process read the status and recorded it, then stopped before applying it.
      const pgs = s.container().resolve<PgsModuleService>(PGS_MODULE)
      const read = (await pgs.gateway().status.transaction(r.transactionId))!.transaction
      const recorded = await recordGatewayRead(knex(), read)
      expect(recorded).toMatchObject({ is_new: true })

      await Promise.all([runJob(16 * MINUTE), runJob(16 * MINUTE)])
      await runJob(3 * HOUR)
      expect((await orderPayments(s, r.orderId)).payments).toHaveLength(1)
      const events = await eventRows(s, { subject_id: r.transactionId })
      expect(events.map((e) => e.outcome)).toEqual(["applied:captured"])
    })

    it("settles a payout left PENDING from the status endpoint", async () => {
      const created = await postPayout(s, bankPayout())
      expect(created.data.payout.status).toBe("PENDING")
      const payout = created.data.payout
      await decide(payout.transaction_id, "APPROVED")
      expect(await runJob(16 * MINUTE)).toMatchObject({ applied: 1 })
      expect(await getPayout(s, payout.id)).toMatchObject({ status: "APPROVED" })
      const [followUp] = await followUps({ transaction_id: payout.transaction_id })
      expect(followUp.note).toMatch(/the payout is now approved/)
    })

    it("gives back, exactly once, money paid for a payment session the cart replaced, also when two runs race", async () => {
      const r = await startRedirect(s, BANK)
      // The shopper changes their mind: another method replaces the bank session (Medusa deletes it)…
      await s.initiatePaymentSession(r.cartId, providerId("pgs-wallets"))
      // …and then the bank pays after all.
      await decide(r.transactionId, "APPROVED")

      const runs = await Promise.all([runJob(16 * MINUTE), runJob(16 * MINUTE)])
      expect(runs.filter((run) => run?.checked).length).toBeGreaterThan(0)
      await runJob(HOUR)
      const children = await gatewayChildren(r.transactionId)
      expect(children.filter((c) => c.transaction_type === "REFUND" || c.transaction_type === "VOID")).toHaveLength(1)
      const [refund] = await followUps({ key: `refund:${r.transactionId}` })
      expect(refund).toMatchObject({ kind: "late_refund", state: "done" })
      expect(refund.note).toMatch(/refunded automatically|released automatically/)
    })

    it("cancels an order abandoned at the bank after the configured hours and gives back a later payment", async () => {
      const r = await orderAwaitingBank()
      expect(await runJob(71 * HOUR)).toMatchObject({ gave_up: 0 })
      expect(await runJob(73 * HOUR)).toMatchObject({ gave_up: 1 })
      expect((await orderPayments(s, r.orderId)).order.status).toBe("canceled")
      const [gaveUp] = await followUps({ key: `give-up:${r.orderId}` })
      expect(gaveUp).toMatchObject({ kind: "gave_up", state: "done" })
      expect(gaveUp.note).toMatch(/never finished paying/)

      await decide(r.transactionId, "APPROVED")
      await runJob(80 * HOUR)
      const children = await gatewayChildren(r.transactionId)
      expect(children.filter((c) => c.transaction_type === "REFUND" || c.transaction_type === "VOID")).toHaveLength(1)
      expect((await orderPayments(s, r.orderId)).payments).toHaveLength(0)
    })
  })

  it("never leaves an order awaiting payment when the decline races the shopper's completion", async () => {
    for (let round = 0; round < 3; round++) {
      const r = await startRedirect(s, BANK)
      const [done] = await Promise.all([s.completeCart(r.cartId), decide(r.transactionId, "DECLINED")])
      const applied = await waitFor(async () => (await eventRows(s, { subject_id: r.transactionId })).find((e) => e.processed_at && e.event.includes("declined")), {
        what: `decline of ${r.transactionId} processed`,
      })
      expect(applied.outcome).toMatch(/^(applied|ignored):/)
      if (done.data?.type === "order") {
        const { collection } = await orderPayments(s, done.data.order.id)
        expect(collection.status).toBe("failed")
      } else {
        expect((await sessionStatus(s, r.sessionId)).status).toBe("error")
      }
    }
  })
})
