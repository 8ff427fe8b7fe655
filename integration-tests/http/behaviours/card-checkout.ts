/**
 * Card checkout with Embedded Fields, the way a storefront and the dashboard drive it: cart → PGS payment
 * session → the shopper pays inside the gateway frame → our route records the verified transaction →
 * cart completion → order; then capture, refund and cancel from the admin API, checked against the sandbox ledger.
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeBody, SYSTEM_PROVIDER_ID } from "../support/store"
import { waitFor } from "../../support/sandbox"
import {
  adminPayment,
  adminPost,
  approvedOperations,
  attachTransaction,
  BROWSER_INFO,
  ledger,
  minor,
  paidEmbeddedCart,
  paymentOfOrder,
  payInFrame,
} from "../support/checkout"
import { parseForms, submit } from "../../sandbox/cards-support"
import { sessionFields } from "../../support/session-fields"

export default storeBody("card checkout with Embedded Fields", (s) => {
  it("gives the storefront what the embedded fields need, and nothing secret", async () => {
    const cart = await s.createCart()
    const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
    expect(session.status).toBe("pending")
    // What the embedded fields need are keys of their own; the plugin's own fields ride in one string.
    expect(session.data).toMatchObject({
      session_id: session.id,
      integration: "embedded_fields",
      client_key: s.sandbox.config.client_key,
      environment: "test",
      script_url: `${s.sandbox.config.base_url}/embedded-fields.js`,
      internal: expect.any(String),
    })
    expect(session.data).not.toHaveProperty("reference")
    expect(sessionFields(session.data)).toMatchObject({
      reference: session.id,
      terminal_id: "SBX-ALL-001",
      transaction_type: "AUTHORIZE",
      currency_code: "eur",
      amount_minor: minor(s.seed.prices.eur),
    })
    expect(session.data.gateway_session_id).toEqual(expect.any(String))
    const text = JSON.stringify(session.data)
    expect(text).not.toContain(s.sandbox.config.client_secret)
    expect(text).not.toContain("payment_data")
  })

  it("places an order for an approved card, then captures in two parts and refunds twice", async () => {
    const { cart, transactionId, attached } = await paidEmbeddedCart(s, "frictionless_approved")
    expect(attached.status).toBe(200)
    expect(attached.data.payment_session).toMatchObject({ status: "authorized", data: { gateway_status: "APPROVED" } })
    // The gateway's transaction id stays with the store and its admin (behaviours/public-payment-data.ts).
    expect(JSON.stringify(attached.data)).not.toContain(transactionId)

    const done = await s.completeCart(cart.id)
    expect(done.status).toBe(200)
    expect(done.data.type).toBe("order")
    const payment = await paymentOfOrder(s, done.data.order.id)

    const total = s.seed.prices.eur // 25.50
    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })).status).toBe(200)
    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: total - 10 })).status).toBe(200)
    expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 5 })).status).toBe(200)
    expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 2.25 })).status).toBe(200)

    const captures = await approvedOperations(s.sandbox, transactionId, "CAPTURE")
    const refunds = await approvedOperations(s.sandbox, transactionId, "REFUND")
    expect(captures.map((c) => c.amount)).toEqual([minor(10), minor(total - 10)])
    expect(refunds.map((r) => r.amount)).toEqual([500, 225])
    const recorded = await adminPayment(s, payment.id)
    expect(recorded.captures).toHaveLength(2)
    expect(recorded.refunds).toHaveLength(2)
    expect(recorded.data.captures.map((c: any) => c.transaction_id).sort()).toEqual(captures.map((c) => c.transaction_id).sort())
  })

  it("refuses to refund more than was captured", async () => {
    const { cart } = await paidEmbeddedCart(s)
    const done = await s.completeCart(cart.id)
    const payment = await paymentOfOrder(s, done.data.order.id)
    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 5 })).status).toBe(200)
    const refund = await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 6 })
    expect(refund.status).toBe(400)
  })

  it("voids the authorization when the order is canceled before capture", async () => {
    const { cart, transactionId } = await paidEmbeddedCart(s)
    const done = await s.completeCart(cart.id)
    const cancel = await adminPost(s, `/admin/orders/${done.data.order.id}/cancel`)
    expect(cancel.status).toBe(200)
    expect(await approvedOperations(s.sandbox, transactionId, "VOID")).toHaveLength(1)
    const original = (await ledger(s.sandbox)).find((e) => e.transaction_id === transactionId)
    expect(original?.status).toBe("CANCELED")
  })

  describe("test cards whose 3-D Secure runs inside the frame (redirect, form post)", () => {
    for (const [scenario, expected] of [
      ["redirect_interactive", "order"],
      ["form_submit_authenticated", "order"],
      ["form_submit_declined", "declined"],
    ] as const) {
      it(`${scenario}: requires more until the step is done, then ${expected === "order" ? "places the order" : "records the decline"}`, async () => {
        const cart = await s.createCart()
        const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
        const { response, transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard(scenario))
        const pending = await attachTransaction(s, session.id, transactionId)
        expect(pending.data.payment_session.status).toBe("requires_more")
        // The frame runs the step: the simulator page's Approve button, or the auto-posted form.
        if (response.redirect) {
          const page = await s.sandbox.raw("GET", response.redirect.url)
          const approve = parseForms(page.text).find((f) => f.id === "approve")!
          await submit(s.sandbox, approve)
        } else {
          await s.sandbox.raw("POST", response.form_submit.url, { form: response.form_submit.data })
        }
        const settled = await attachTransaction(s, session.id, transactionId)
        const done = await s.completeCart(cart.id)
        if (expected === "order") {
          expect(settled.data.payment_session.status).toBe("authorized")
          expect(done.data.type).toBe("order")
        } else {
          expect(settled.data.payment_session.status).toBe("error")
          expect(settled.data.payment_session.data.error.message).toMatch(/declined|could not be completed/i)
          expect(done.data.type).not.toBe("order")
        }
      })
    }
  })

  it("records a declined card with the shopper's message and places no order", async () => {
    const { cart, attached } = await paidEmbeddedCart(s, "frictionless_insufficient_funds")
    expect(attached.status).toBe(200)
    expect(attached.data.payment_session.status).toBe("error")
    expect(attached.data.payment_session.data.error.message).toMatch(/declined/i)
    // A session in "error" is not completable (Medusa's validateCartPaymentsStep): the shopper starts a new one.
    const done = await s.completeCart(cart.id)
    expect(done.status).toBe(400)
    expect(done.data.type).not.toBe("order")
  })

  it("starts a new gateway session with a new reference when the amount changes, and keeps it when it does not", async () => {
    const cart = await s.createCart()
    const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
    const payment = s.container().resolve<any>("payment")
    const same = await payment.updatePaymentSession({ id: session.id, amount: s.seed.prices.eur, currency_code: "eur", data: session.data })
    expect(same.data.gateway_session_id).toBe(session.data.gateway_session_id)
    const changed = await payment.updatePaymentSession({ id: session.id, amount: 30, currency_code: "eur", data: session.data })
    expect(sessionFields(changed.data)).toMatchObject({ attempt: 2, reference: `${session.id}-2`, amount_minor: 3000 })
    expect(changed.data.gateway_session_id).not.toBe(session.data.gateway_session_id)
    // Session data altered by anyone but this server is refused.
    const altered = { ...changed.data, internal: JSON.stringify({ ...sessionFields(changed.data), amount_minor: 1 }) }
    await expect(payment.updatePaymentSession({ id: session.id, amount: 30, currency_code: "eur", data: altered })).rejects.toThrow(/altered/)
    // A public copy of a field beside the internal one is not read: the internal one decides.
    const beside = await payment.updatePaymentSession({ id: session.id, amount: 30, currency_code: "eur", data: { ...changed.data, amount_minor: 1 } })
    expect(sessionFields(beside.data)).toMatchObject({ attempt: 2, amount_minor: 3000 })
  })

  it("answers requires_more when the shopper completes the cart before paying", async () => {
    const cart = await s.createCart()
    await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
    const done = await s.completeCart(cart.id)
    expect(done.status).toBe(200)
    expect(done.data.type).toBe("cart")
    expect(done.data.error.type).toBe("payment_requires_more_error")
  })

  it("refuses another session's transaction, an unknown id and a session of another provider", async () => {
    const paid = await paidEmbeddedCart(s)
    const other = await s.createCart()
    const otherSession = await s.initiatePaymentSession(other.id, "pp_pgs_pgs")

    const stolen = await attachTransaction(s, otherSession.id, paid.transactionId)
    expect(stolen.status).toBe(409)
    expect(stolen.data.message).toMatch(/does not belong to this payment session/)

    const unknown = await attachTransaction(s, otherSession.id, "trx_does_not_exist")
    expect(unknown.status).toBe(404)

    const missing = await attachTransaction(s, "payses_01JNOTASESSION0000000000000", paid.transactionId)
    expect(missing.status).toBe(404)

    const system = await s.createCart()
    const systemSession = await s.initiatePaymentSession(system.id, SYSTEM_PROVIDER_ID)
    const foreign = await attachTransaction(s, systemSession.id, paid.transactionId)
    expect(foreign.status).toBe(400)

    const invalid = await s.api.post(`/store/pgs/payment-sessions/${otherSession.id}/transaction`, { transaction_id: "" }, { headers: s.storeHeaders, validateStatus: () => true })
    expect(invalid.status).toBe(400)
    expect(invalid.data.message).toMatch(/transaction_id/)
  })

  it("refuses a transaction of the right session made for another amount", async () => {
    const cart = await s.createCart()
    const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs")
    // The same reference on the terminal but through the merchant API with another amount: a forged payment.
    const forged = await s.sandbox.api("POST", "/api/transactions/authorize", {
      reference: sessionFields(session.data).reference,
      terminal_id: sessionFields(session.data).terminal_id,
      description: "forged",
      currency: "EUR",
      amount: 1,
      transaction_type: "AUTHORIZE",
      payment_method: s.sandbox.encryptedCard({ number: s.sandbox.testCard("frictionless_approved") }),
      browser_info: BROWSER_INFO,
      return_url: "http://localhost:8000/checkout/return",
    })
    expect(forged.status).toBe(200)
    const res = await attachTransaction(s, session.id, forged.body.result.id)
    expect(res.status).toBe(409)
    expect(res.data.message).toMatch(/amount/)
    expect((await s.completeCart(cart.id)).data.type).not.toBe("order")
  })

  it("takes the money at once on a PURCHASE terminal: the order is captured, refunds work and a void is refused", async () => {
    await s.container().resolve<any>("pgs").createPgsTerminalSettings({
      terminal_id: "SBX-CARDS-01",
      currency_codes: ["pln"],
      region_ids: [],
      transaction_type: "PURCHASE",
      integration_type: "EMBEDDED_FIELDS",
    })
    const { cart, session, transactionId, attached } = await paidEmbeddedCart(s, "frictionless_approved", { currency_code: "pln" })
    expect(sessionFields(session.data)).toMatchObject({ terminal_id: "SBX-CARDS-01", transaction_type: "PURCHASE", amount_minor: 10999 })
    expect(attached.data.payment_session.status).toBe("captured")
    const done = await s.completeCart(cart.id)
    expect(done.data.type).toBe("order")
    const payment = await paymentOfOrder(s, done.data.order.id)
    const recorded = await adminPayment(s, payment.id)
    expect(recorded.captures).toHaveLength(1)
    expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 9.99 })).status).toBe(200)
    expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((r) => r.amount)).toEqual([999])
    expect(await approvedOperations(s.sandbox, transactionId, "CAPTURE")).toHaveLength(0)
    await expect(s.container().resolve<any>("payment").cancelPayment(payment.id)).rejects.toThrow(/PURCHASE.*cannot be voided/)
    expect(await approvedOperations(s.sandbox, transactionId, "VOID")).toHaveLength(0)
    // The order widget's view: the capture row Medusa wrote at authorization is the gateway's own, not one to confirm.
    const view = await s.api.get(`/admin/pgs/orders/${done.data.order.id}/gateway`, { headers: await s.adminHeaders() })
    expect(view.data.payments[0].operations.map((o: any) => [o.kind, o.unconfirmed])).toEqual([["capture", false], ["refund", false]])
    expect(view.data.payments[0].confirmed_by_gateway).toEqual({ captured: "109.99", refunded: "9.99", unconfirmed: 0 })
  })

  it("completes a cart once when the storefront completes it 20 times at once", async () => {
    const { cart, transactionId } = await paidEmbeddedCart(s)
    const results = await Promise.all(Array.from({ length: 20 }, () => s.completeCart(cart.id)))
    const orderIds = new Set(results.filter((r) => r.data?.type === "order").map((r) => r.data.order.id))
    expect(orderIds.size).toBe(1)
    for (const r of results) expect([200, 409]).toContain(r.status)
    const payments = await s.api.get(`/admin/orders/${[...orderIds][0]}?fields=id,*payment_collections.payments`, { headers: await s.adminHeaders() })
    expect(payments.data.order.payment_collections.flatMap((c: any) => c.payments)).toHaveLength(1)
    expect((await ledger(s.sandbox)).filter((e) => e.transaction_id === transactionId && !e.replay)).toHaveLength(1)
  })

  describe("when the gateway fails before acting on a capture or refund", () => {
    for (const fault of [
      { kind: "status", status: 503 },
      { kind: "drop" },
    ] as const) {
      it(`(${fault.kind}) Medusa records nothing, the retry succeeds, and the ledger matches Medusa exactly`, async () => {
        const { cart, transactionId } = await paidEmbeddedCart(s)
        const done = await s.completeCart(cart.id)
        const payment = await paymentOfOrder(s, done.data.order.id)

        await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/manage", phase: "before", count: 1, ...fault })
        const failed = await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })
        expect(failed.status).toBeGreaterThanOrEqual(400)
        expect((await adminPayment(s, payment.id)).captures).toHaveLength(0)
        expect(await approvedOperations(s.sandbox, transactionId, "CAPTURE")).toHaveLength(0)

        expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })).status).toBe(200)

        await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/manage", phase: "before", count: 1, ...fault })
        expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 4 })).status).toBeGreaterThanOrEqual(400)
        expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 4 })).status).toBe(200)

        const recorded = await adminPayment(s, payment.id)
        const captures = await approvedOperations(s.sandbox, transactionId, "CAPTURE")
        const refunds = await approvedOperations(s.sandbox, transactionId, "REFUND")
        expect(recorded.captures.map((c: any) => minor(Number(c.amount)))).toEqual(captures.map((c) => c.amount))
        expect(recorded.refunds.map((r: any) => minor(Number(r.amount)))).toEqual(refunds.map((r) => r.amount))
        expect(captures.map((c) => c.amount)).toEqual([1000])
        expect(refunds.map((r) => r.amount)).toEqual([400])
      })
    }

    it("after the gateway captured but the answer was lost: the admin is told, and the management webhook records the capture once", async () => {
      const { cart, transactionId } = await paidEmbeddedCart(s)
      const done = await s.completeCart(cart.id)
      const payment = await paymentOfOrder(s, done.data.order.id)
      await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/manage", phase: "after", kind: "status", status: 503, count: 1 })
      const lost = await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })
      expect(lost.status).toBe(500)
      expect(lost.data.message).toMatch(/idempotency key/)
      expect(await approvedOperations(s.sandbox, transactionId, "CAPTURE")).toHaveLength(1)
      const recorded = await waitFor(async () => {
        const p = await adminPayment(s, payment.id)
        return p.captures.length ? p : null
      }, { what: "the capture recorded from the management webhook", timeoutMs: 15_000 })
      expect(recorded.captures.map((c: any) => minor(Number(c.amount)))).toEqual([1000])
      // The lost answer was listed for the shop admin, and the webhook settled it.
      const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const listed = await waitFor(async () => {
        const row = await knex("pgs_follow_up").where({ kind: "unknown_management", transaction_id: transactionId }).first()
        return row?.state === "done" ? row : null
      }, { what: "the lost capture answer settled on the admin's list" })
      expect(listed.note).toMatch(/capture of 10(\.00)? EUR .* answer was lost.*confirmed it/)
    })

    it("after the gateway refunded but the answer was lost: the admin is told, and the management webhook records the refund once", async () => {
      const { cart, transactionId } = await paidEmbeddedCart(s)
      const done = await s.completeCart(cart.id)
      const payment = await paymentOfOrder(s, done.data.order.id)
      expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })).status).toBe(200)
      await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/manage", phase: "after", kind: "status", status: 503, count: 1 })
      const lost = await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 4 })
      expect(lost.status).toBe(500)
      expect(lost.data.message).toMatch(/idempotency key/)
      expect(await approvedOperations(s.sandbox, transactionId, "REFUND")).toHaveLength(1)
      const recorded = await waitFor(async () => {
        const p = await adminPayment(s, payment.id)
        return p.refunds.length ? p : null
      }, { what: "the refund recorded from the management webhook", timeoutMs: 15_000 })
      expect(recorded.refunds.map((r: any) => minor(Number(r.amount)))).toEqual([400])
      expect((await approvedOperations(s.sandbox, transactionId, "REFUND")).map((r) => r.amount)).toEqual([400])
    })
  })

  describe("when the gateway does not answer a capture or refund in time (management timeout 2 s in tests)", () => {
    const timeout = (phase: "before" | "after") => ({ target: "POST /api/transactions/manage", kind: "timeout", phase, latency_ms: 10_000, count: 1 })

    /** The ledger's approved captures and refunds equal Medusa's, amount for amount. */
    async function expectLedgerMatchesMedusa(paymentId: string, transactionId: string) {
      const recorded = await adminPayment(s, paymentId)
      const captures = await approvedOperations(s.sandbox, transactionId, "CAPTURE")
      const refunds = await approvedOperations(s.sandbox, transactionId, "REFUND")
      expect(recorded.captures.map((c: any) => minor(Number(c.amount)))).toEqual(captures.map((c) => c.amount))
      expect(recorded.refunds.map((r: any) => minor(Number(r.amount)))).toEqual(refunds.map((r) => r.amount))
      return { captures, refunds }
    }

    it("(timeout before acting) a capture and a refund fail, Medusa records nothing, and later ones succeed", async () => {
      const { cart, transactionId } = await paidEmbeddedCart(s)
      const done = await s.completeCart(cart.id)
      const payment = await paymentOfOrder(s, done.data.order.id)

      await s.sandbox.control("POST", "/_sandbox/faults", timeout("before"))
      const failedCapture = await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })
      expect(failedCapture.status).toBeGreaterThanOrEqual(400)
      expect(failedCapture.data.message).toMatch(/idempotency key/)
      expect((await adminPayment(s, payment.id)).captures).toHaveLength(0)
      expect(await approvedOperations(s.sandbox, transactionId, "CAPTURE")).toHaveLength(0)
      expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })).status).toBe(200)

      await s.sandbox.control("POST", "/_sandbox/faults", timeout("before"))
      const failedRefund = await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 4 })
      expect(failedRefund.status).toBeGreaterThanOrEqual(400)
      expect(failedRefund.data.message).toMatch(/idempotency key/)
      expect((await adminPayment(s, payment.id)).refunds).toHaveLength(0)
      expect(await approvedOperations(s.sandbox, transactionId, "REFUND")).toHaveLength(0)
      expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 4 })).status).toBe(200)

      const { captures, refunds } = await expectLedgerMatchesMedusa(payment.id, transactionId)
      expect(captures.map((c) => c.amount)).toEqual([1000])
      expect(refunds.map((r) => r.amount)).toEqual([400])
    })

    it("(timeout after the gateway captured) the admin is told the idempotency key, and the management webhook records the capture once", async () => {
      const { cart, transactionId } = await paidEmbeddedCart(s)
      const done = await s.completeCart(cart.id)
      const payment = await paymentOfOrder(s, done.data.order.id)
      await s.sandbox.control("POST", "/_sandbox/faults", timeout("after"))
      const lost = await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })
      expect(lost.status).toBe(500)
      expect(lost.data.message).toMatch(/idempotency key/)
      await waitFor(async () => (await adminPayment(s, payment.id)).captures.length > 0, {
        what: "the capture recorded from the management webhook",
        timeoutMs: 15_000,
      })
      const { captures } = await expectLedgerMatchesMedusa(payment.id, transactionId)
      expect(captures.map((c) => c.amount)).toEqual([1000])
    })

    it("(timeout after the gateway refunded) the admin is told the idempotency key, and the management webhook records the refund once", async () => {
      const { cart, transactionId } = await paidEmbeddedCart(s)
      const done = await s.completeCart(cart.id)
      const payment = await paymentOfOrder(s, done.data.order.id)
      expect((await adminPost(s, `/admin/payments/${payment.id}/capture`, { amount: 10 })).status).toBe(200)
      await s.sandbox.control("POST", "/_sandbox/faults", timeout("after"))
      const lost = await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: 4 })
      expect(lost.status).toBe(500)
      expect(lost.data.message).toMatch(/idempotency key/)
      await waitFor(async () => (await adminPayment(s, payment.id)).refunds.length > 0, {
        what: "the refund recorded from the management webhook",
        timeoutMs: 15_000,
      })
      const { captures, refunds } = await expectLedgerMatchesMedusa(payment.id, transactionId)
      expect(captures.map((c) => c.amount)).toEqual([1000])
      expect(refunds.map((r) => r.amount)).toEqual([400])
      // The webhook came while Medusa's call was still waiting; the call then lost its answer and listed it for the
      // admin. Recording the refund closed that item (it must not go on asking for the refund to be tried again).
      const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
      const item = await waitFor(async () => {
        const row = await knex("pgs_follow_up").where({ kind: "unknown_management", transaction_id: transactionId }).first("state", "note")
        return row?.state === "done" ? row : null
      }, { what: "the lost refund answer settled on the admin's list" })
      expect(item.note).toMatch(/refund of 4(\.00)? EUR .* answer was lost.*confirmed it/)
    })
  })
})

