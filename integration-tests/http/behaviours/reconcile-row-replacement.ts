/**
 * Reconciliation replacing a refund row Medusa left when its server died mid-call (reconcile/unfinished-operations.ts)
 * while another run of the gateway's refund webhook comes along: the refund the gateway made is recorded once, in the
 * row's place, whichever run gets there.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { IDEMPOTENCY_METADATA_KEY } from "../../../src/gateway"
import retryPgsWebhookEvents from "../../../src/jobs/retry-pgs-webhook-events"
import { unconfirmedOperationKey } from "../../../src/payments/lost-answers"
import { paidOrder } from "../support/admin-pgs"
import { MINUTE, runReconcile } from "../support/attention"
import { adminPayment, adminPost, paymentOfOrder } from "../support/checkout"
import { storeBody } from "../support/store"
import { eventLockFree, eventRows, processedEvent, waitFor } from "../support/webhooks"
import { sessionFields } from "../../support/session-fields"

export default storeBody("reconciliation replacing an unfinished refund row", (s) => {
  /** A captured order, Medusa's refund row of 4.00 EUR written 3 minutes ago by a call that died, and the gateway's refund it made. */
  async function refundRowTheGatewayMade() {
    const { orderId, session, transactionId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, {})).status).toBe(200)
    const payments = s.container().resolve(Modules.PAYMENT) as unknown as { createRefunds(data: object[]): Promise<Array<{ id: string }>> }
    const [row] = await payments.createRefunds([{ payment_id: payment.id, amount: 4, note: "Scarf returned" }])
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    await knex("refund").where({ id: row!.id }).update({ created_at: new Date(Date.now() - 3 * MINUTE) })
    const data = sessionFields(session.data)
    const made = await s.sandbox.api("POST", "/api/transactions/manage", {
      terminal_id: data.terminal_id,
      reference: data.reference,
      parent_transaction_id: transactionId,
      transaction_type: "REFUND",
      amount: 400,
      currency: String(data.currency_code).toUpperCase(),
      metadata: { [IDEMPOTENCY_METADATA_KEY]: row!.id },
    })
    expect(made.body.status).toBe("APPROVED")
    return { paymentId: payment.id as string, rowId: row!.id, reference: String(data.reference), refundId: made.body.id as string }
  }

  it("records the gateway's refund when the retry job runs its webhook while reconciliation is replacing Medusa's row", async () => {
    const { paymentId, rowId, reference, refundId } = await refundRowTheGatewayMade()
    // The webhook came after Medusa's call had stopped: taken for that call, as the call's row is still there.
    expect((await processedEvent(s, refundId)).outcome).toBe("ignored:made_by_medusa")
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    // A transaction holds Medusa's row: reconciliation, which makes the event due again and then removes the row, waits
    // at the removal. The retry job's minute comes then, and its run goes as far as it can while the removal waits: to
    // the end while nothing holds the event's lock (before the fix it took the row for Medusa's own call, the row was
    // removed after, and the gateway's refund was recorded nowhere).
    const holder = await knex.transaction()
    let reconcile: Promise<unknown> = Promise.resolve()
    let retried: Promise<unknown> = Promise.resolve()
    try {
      await holder("refund").where({ id: rowId }).forUpdate().first("id")
      reconcile = runReconcile(s, 10 * MINUTE)
      await waitFor(async () => (await eventRows(s, { subject_id: refundId }))[0]!.processed_at === null, { what: "the event made due again" })
      const lockFree = await eventLockFree(s, reference)
      retried = retryPgsWebhookEvents(s.container(), { scheduledFor: new Date(Date.now() + 3 * MINUTE) })
      if (lockFree) await retried
    } finally {
      await holder.rollback()
    }
    await Promise.all([reconcile, retried])
    const refunds = (await adminPayment(s, paymentId)).refunds.map((r: any) => ({ amount: Number(r.amount), transaction: r.metadata?.pgs_transaction_id ?? null }))
    expect(refunds).toEqual([{ amount: 4, transaction: refundId }])
    // In the row's place, with what the admin gave it, and on the record.
    expect(await knex("refund").where({ payment_id: paymentId }).whereNull("deleted_at").select("note")).toEqual([{ note: "Scarf returned" }])
    expect(await knex("pgs_follow_up").where({ key: unconfirmedOperationKey("refund", rowId) }).first("kind", "state")).toEqual({ kind: "reconciled", state: "done" })
  })
})
