/**
 * The follow-up options at work (issue 17): with refundLateApprovals off, late money is listed for a person instead
 * of being given back; with giveUpRedirectOrdersAfterHours 0, an abandoned bank order is never canceled.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import reconcilePgsTransactions from "../../../src/jobs/reconcile-pgs-transactions"
import { storeBody } from "../support/store"
import { orderPayments, providerId, startRedirect } from "../support/redirect"

const HOUR = 60 * 60_000

/** The store option these tests need: the store-*.spec.ts that runs them boots with it. */
export const storeEnv = { PGS_REFUND_LATE_APPROVALS: "false", PGS_GIVE_UP_REDIRECT_AFTER_HOURS: "0" }

export default storeBody(
  "reconciling with the gateway, automatic refunds and giving up turned off",
  (s) => {
    const runJob = (msFromNow: number) => reconcilePgsTransactions(s.container(), { scheduledFor: new Date(Date.now() + msFromNow) })
    const knex = () => s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)

    beforeEach(async () => {
      await s.sandbox.control("DELETE", "/_sandbox/webhooks")
    })
    afterEach(async () => {
      await s.sandbox.control("POST", "/_sandbox/webhooks", { url: s.webhookUrl })
    })

    it("lists money paid for a replaced payment session for a person, and does not refund it", async () => {
      const r = await startRedirect(s, "pgs-open-banking")
      await s.initiatePaymentSession(r.cartId, providerId("pgs-wallets"))
      await s.sandbox.control("POST", `/_sandbox/transactions/${r.transactionId}/outcome`, { status: "APPROVED" })
      await runJob(HOUR)
      const children = (await s.sandbox.control("GET", `/_sandbox/transactions/${r.transactionId}`)).body.children
      expect(children).toEqual([])
      const row = await knex()("pgs_follow_up").where({ key: `refund:${r.transactionId}` }).first()
      expect(row).toMatchObject({ kind: "late_refund", state: "needs_person" })
      expect(row.note).toMatch(/Automatic refunds are off: refund it at the gateway/)
    })

    it("never cancels an order awaiting a bank payment", async () => {
      const r = await startRedirect(s, "pgs-open-banking")
      const done = await s.completeCart(r.cartId)
      expect(done.data.type).toBe("order")
      expect(await runJob(30 * 24 * HOUR)).toMatchObject({ gave_up: 0 })
      expect((await orderPayments(s, done.data.order.id)).order.status).not.toBe("canceled")
    })
  },
)
