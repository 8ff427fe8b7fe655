/**
 * Webhook processing that failed is run again by the retry job (src/jobs/retry-pgs-webhook-events.ts) after a
 * backoff, a capped number of times, and applied once; an event recorded but never started is picked up after a
 * grace period, not before. The job is invoked directly with the store's container and the time it runs for.
 */
import { createHash } from "node:crypto"
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { recordDelivery } from "../../../src/modules/pgs/webhook-intake/recorder"
import retryPgsWebhookEvents from "../../../src/jobs/retry-pgs-webhook-events"
import { WEBHOOK_RETRY } from "../../../src/modules/pgs/webhook-queue"
import { payInFrame, paymentOfOrder } from "../support/checkout"
import { PGS_PROVIDER_ID, storeBody } from "../support/store"
import { orderPayments, sessionRow, sessionStatus, startRedirect } from "../support/redirect"
import { eventRows, linkGatewayCustomer, manageAtGateway, orderOfCart, processedEvent, waitFor } from "../support/webhooks"
import { paidOrder } from "../support/admin-pgs"
import { sessionFields } from "../../support/session-fields"

const STATUS_READ = "GET /api/transactions/:id/status"
const MINUTE = 60_000

export default storeBody("retrying webhook processing", (s) => {
  const runJobAt = (at: Date) => retryPgsWebhookEvents(s.container(), { scheduledFor: at })
  const after = (at: Date | null, ms = 1000) => new Date(at!.getTime() + ms)
  const rowOf = async (subjectId: string) => (await eventRows(s, { subject_id: subjectId }))[0]!

  /** A cart paid in the frame whose approval fails to process `failures` times: the gateway's status read answers garbage. */
  async function failingApproval(failures: number) {
    const cart = await s.createCart()
    const session = await s.initiatePaymentSession(cart.id, PGS_PROVIDER_ID)
    await s.sandbox.control("POST", "/_sandbox/faults", { target: STATUS_READ, kind: "garble", count: failures })
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
    const failed = await processedEvent(s, transactionId)
    return { cart, transactionId, failed }
  }

  it("runs a failed approval again once its backoff has passed and applies it once", async () => {
    const { cart, transactionId, failed } = await failingApproval(1)
    expect(failed).toMatchObject({ outcome: "error", attempts: 1, processed_at: null })
    expect(failed.error).toBeTruthy()
    expect(failed.next_attempt_at!.getTime() - failed.updated_at.getTime()).toBeGreaterThanOrEqual(WEBHOOK_RETRY.baseDelayMs - 5000)
    expect(await orderOfCart(s, cart.id)).toBeNull()

    // Before its backoff has passed the job leaves it alone.
    expect(await runJobAt(new Date())).toEqual({ due: 0 })
    expect(await rowOf(transactionId)).toMatchObject({ outcome: "error", attempts: 1 })

    expect(await runJobAt(after(failed.next_attempt_at))).toEqual({ due: 1 })
    const applied = await rowOf(transactionId)
    expect(applied).toMatchObject({ error: null, attempts: 1, next_attempt_at: null })
    expect(applied.outcome).toMatch(/^applied:(authorized|captured)$/)
    expect(applied.processed_at).not.toBeNull()
    const orderId = await waitFor(() => orderOfCart(s, cart.id), { what: "the order of the cart" })
    const payment = await paymentOfOrder(s, orderId)

    // Nothing is due any more, however late the job runs: still one order with one payment.
    expect(await runJobAt(after(failed.next_attempt_at, 24 * 60 * MINUTE))).toEqual({ due: 0 })
    const order = await s.api.get(`/admin/orders/${orderId}?fields=id,*payment_collections.payments`, { headers: await s.adminHeaders() })
    expect(order.data.order.payment_collections.flatMap((c: any) => c.payments).map((p: any) => p.id)).toEqual([payment.id])
    expect(await orderOfCart(s, cart.id)).toBe(orderId)
  })

  it("backs off twice as long after each failure and keeps the error once the attempts are used up", async () => {
    const { cart, transactionId, failed } = await failingApproval(WEBHOOK_RETRY.maxAttempts)
    let row = failed
    for (let attempt = 2; attempt <= WEBHOOK_RETRY.maxAttempts; attempt++) {
      const delay = row.next_attempt_at!.getTime() - row.updated_at.getTime()
      const expected = WEBHOOK_RETRY.baseDelayMs * 2 ** (attempt - 2)
      expect(Math.abs(delay - expected)).toBeLessThan(5000)
      expect(await runJobAt(after(row.next_attempt_at))).toEqual({ due: 1 })
      row = await rowOf(transactionId)
      expect(row).toMatchObject({ outcome: "error", attempts: attempt })
    }
    expect(row.next_attempt_at).toBeNull()
    expect(row.processed_at).toBeNull()
    expect(row.error).toBeTruthy()

    // The faults are used up, so a further run would succeed: the job no longer tries.
    expect(await runJobAt(after(row.updated_at, 24 * 60 * MINUTE))).toEqual({ due: 0 })
    expect(await rowOf(transactionId)).toMatchObject({ outcome: "error", attempts: WEBHOOK_RETRY.maxAttempts })
    expect(await orderOfCart(s, cart.id)).toBeNull()
  })

  it("picks up an event recorded but never started once the grace period has passed, not before", async () => {
    const shopper = await s.registerCustomer()
    const gatewayCustomerId = await linkGatewayCustomer(s, { id: shopper.customer.id, email: shopper.email })
    const paymentMethodId = `pm_retry_${Date.now().toString(36)}`
    const payload = {
      payment_method: {
        id: paymentMethodId,
        type: "card",
        card: { brand: "VISA", last_4: "1000", bin: "400000", masked: "400000******1000", exp_month: 7, exp_year: 2031 },
      },
      transaction_id: null,
      customer: { id: gatewayCustomerId, first_name: "Grace", last_name: "Hopper", email: shopper.email },
      merchant_id: s.sandbox.config.merchant_id,
      created_at: new Date().toISOString(),
    }
    const body = JSON.stringify({ event: "tokenization-webhook:payment-method:tokenized", payload })
    // Recorded as the webhook route records it, then the process stopped before its subscriber ran (no event).
    await recordDelivery(s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION), {
      delivery_key: createHash("sha512").update(body).digest("hex"),
      event: "tokenization-webhook:payment-method:tokenized",
      subject_id: paymentMethodId,
      reference: null,
      payload,
    })
    const recorded = await rowOf(paymentMethodId)

    // Within the grace period the subscriber may still be on its way: left alone.
    expect(await runJobAt(after(recorded.received_at, WEBHOOK_RETRY.graceMs - 5000))).toEqual({ due: 0 })
    expect(await rowOf(paymentMethodId)).toMatchObject({ outcome: null, attempts: 0 })

    expect(await runJobAt(after(recorded.received_at, WEBHOOK_RETRY.graceMs + 1000))).toEqual({ due: 1 })
    expect(await rowOf(paymentMethodId)).toMatchObject({ outcome: "applied:card_saved", attempts: 0, error: null })
    const cards = await s.api.get("/store/pgs/saved-cards", { headers: { ...s.storeHeaders, authorization: `Bearer ${shopper.token}` } })
    expect(cards.data.saved_cards).toHaveLength(1)
  })

  /**
   * The real table refuses its next change of `column`, once (a sequence counts: it is not rolled back with the
   * refusal). Returns the cleanup.
   */
  async function refuseOnce(table: string, column: string): Promise<() => Promise<void>> {
    const db = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    await db.raw(`create sequence if not exists pgs_test_refuse_once`)
    await db.raw(`create or replace function pgs_test_refuse_once() returns trigger language plpgsql as $$
      begin
        if (to_jsonb(new) ->> TG_ARGV[0]) is distinct from (to_jsonb(old) ->> TG_ARGV[0]) and nextval('pgs_test_refuse_once') = 1 then
          raise exception '% refused for the test', TG_TABLE_NAME;
        end if;
        return new;
      end $$`)
    await db.raw(`create trigger pgs_test_refuse_once before update on ${table} for each row execute function pgs_test_refuse_once('${column}')`)
    return async () => {
      await db.raw(`drop trigger if exists pgs_test_refuse_once on ${table}`)
      await db.raw(`drop function if exists pgs_test_refuse_once()`)
      await db.raw(`drop sequence if exists pgs_test_refuse_once`)
    }
  }

  /** The event of this subject once its processing failed. */
  const failedEvent = (subjectId: string) =>
    waitFor(async () => (await eventRows(s, { subject_id: subjectId })).find((e) => e.outcome === "error"), { what: `a failed event of ${subjectId}` })

  // A decline is two writes: the order's payment collection, then the session. Either may fail.
  it.each([
    ["payment_collection", "status", "the order's payment could not be marked"],
    ["payment_session", "status", "the order's payment marked, then the session refused"],
  ])("leaves nothing half applied when a decline fails at %s.%s (%s), and applies all of it on the retry", async (table, column) => {
    const r = await startRedirect(s, "pgs-open-banking", { currency: "eur" })
    const done = await s.completeCart(r.cartId)
    expect(done.data.type).toBe("order")
    const collectionBefore = (await orderPayments(s, done.data.order.id)).collection.status
    expect(collectionBefore).not.toBe("failed")
    const cleanup = await refuseOnce(table, column)
    try {
      await s.sandbox.control("POST", `/_sandbox/transactions/${r.transactionId}/outcome`, { status: "DECLINED", processing_code: "1004" })
      const failed = await failedEvent(r.transactionId)
      expect(failed.error).toContain(`${table} refused for the test`)
      // Medusa shows what it showed before the decline: the order still awaits its payment, nothing half applied.
      expect((await sessionRow(s, r.sessionId)).status).toBe("pending_authorization")
      expect((await orderPayments(s, done.data.order.id)).collection.status).toBe(collectionBefore)

      await runJobAt(after(failed.next_attempt_at))
      const retried = await eventRows(s, { subject_id: r.transactionId })
      expect(retried.find((e) => e.id === failed.id)).toMatchObject({ outcome: "applied:error_order_failed", attempts: 1, error: null })
      expect((await orderPayments(s, done.data.order.id)).collection.status).toBe("failed")
      expect((await sessionStatus(s, r.sessionId)).status).toBe("error")
    } finally {
      await cleanup()
    }
  })

  // A void made at the gateway is two writes too: the order's payment collection, then the payment.
  it.each([
    ["payment_collection", "status"],
    ["payment", "canceled_at"],
  ])("leaves nothing half applied when recording a gateway void fails at %s.%s, and records all of it on the retry", async (table, column) => {
    const { orderId, session, transactionId } = await paidOrder(s)
    const payment = await paymentOfOrder(s, orderId)
    const collectionBefore = (await orderPayments(s, orderId)).collection.status
    const cleanup = await refuseOnce(table, column)
    try {
      const voidId = await manageAtGateway(s, session, transactionId, "VOID", sessionFields(session.data).amount_minor)
      const failed = await failedEvent(voidId)
      expect(failed.error).toContain(`${table} refused for the test`)
      expect((await orderPayments(s, orderId)).collection.status).toBe(collectionBefore)
      expect((await paymentOfOrder(s, orderId)).canceled_at).toBeNull()

      await runJobAt(after(failed.next_attempt_at))
      expect((await rowOf(voidId))).toMatchObject({ outcome: "applied:external_void", attempts: 1, error: null })
      expect((await orderPayments(s, orderId)).collection.status).toBe("canceled")
      expect((await paymentOfOrder(s, orderId)).canceled_at).not.toBeNull()
      expect(payment.id).toBe((await paymentOfOrder(s, orderId)).id)
    } finally {
      await cleanup()
    }
  })
})
