/**
 * Charging what an order owes to the customer's saved card from the dashboard (merchant-initiated): only a card
 * saved with the customer's consent asked in words (option savedCardConsent, on for the store that runs these tests), once for
 * double clicks, retries (also after a lost answer) and two admins; when the bank wants the customer (3-D Secure)
 * or declines, nothing is charged and the admin reads why and is told to send the pay link.
 */
import { admin, customerWithSavedCard } from "../support/admin-pgs"
import { adminPost, BROWSER_INFO } from "../support/checkout"
import { PLAIN_VISA, walletPayment } from "../support/checkout-direct"
import { CONSENT_ASKED, orderFromDraft, orderOfCardSaver, orderOfCardSaverOwingMore, owedByOrder, owedCollection, paymentsOfCollection } from "../support/pay-link"
import { drillOrderChange } from "../support/order-change-drill"
import { ORDER_CHANGES_OWING_MORE } from "../support/order-changes"
import { expectMedusaAndGatewayAgree } from "../support/agreement"
import { storeBody } from "../support/store"
import { sessionFields } from "../../support/session-fields"

let clicks = 0
const newKey = () => `click-${Date.now().toString(36)}-${(clicks++).toString(36)}-abcdefgh`

/** The store option these tests need: the store-*.spec.ts that runs them boots with it. */
export const storeEnv = { PGS_SAVED_CARD_CONSENT: "true" }

export default storeBody(
  "charging a saved card from the dashboard",
  (s) => {
    const owingOrderOfCardSaver = (scenario?: string, how?: Parameters<typeof orderOfCardSaverOwingMore>[2]) => orderOfCardSaverOwingMore(s, scenario, how)
    /** Every transaction and operation that reached the gateway (replays included). */
    const ledger = async () => (await s.sandbox.control("GET", "/_sandbox/ledger")).body.entries as Array<{ reference: string; replay: boolean; status: string | null }>
    const sessionsOf = async (collectionId: string) =>
      (await s.container().resolve<any>("query").graph({ entity: "payment_session", fields: ["id", "data"], filters: { payment_collection_id: collectionId } })).data as Array<{ id: string; data: Record<string, unknown> | null }>

    const charge = (orderId: string, body: Record<string, unknown>) =>
      admin(s, "post", `/admin/pgs/orders/${orderId}/charge-saved-card`, { browser_info: BROWSER_INFO, idempotency_key: newKey(), ...body })

    it("records the consent with the card as the shopper was asked (time, wording, language, words), tokenized for merchant-initiated use, and offers it on the order", async () => {
      const before = Date.now()
      const { orderId, card, customerId } = await owingOrderOfCardSaver()
      const [row] = await s.container().resolve<any>("pgs").listPgsSavedCards({ customer_id: customerId })
      expect(row.merchant_consent_at).toBeInstanceOf(Date)
      expect(row.merchant_consent_at.getTime()).toBeGreaterThanOrEqual(before - 1000)
      expect(row.merchant_consent).toEqual(CONSENT_ASKED)
      expect(s.sandbox.sandbox.context.store.storedCards.get(row.payment_method_id)!.tokenize_for).toBe("MERCHANT_INITIATED_TRANSACTION")
      const view = await admin(s, "get", `/admin/pgs/orders/${orderId}/pay-link`)
      expect(view.data.chargeable_cards).toEqual([expect.objectContaining({ id: card.id, last_4: card.last_4 })])
    })

    it("charges what the order owes once, for a double click, a retried click and two admins at once", async () => {
      const { orderId, collectionId, card } = await owingOrderOfCardSaver()
      const key = newKey()
      const body = { payment_collection_id: collectionId, saved_card_id: card.id }
      const answers = await Promise.all([
        charge(orderId, { ...body, idempotency_key: key }),
        charge(orderId, { ...body, idempotency_key: key }),
        charge(orderId, body),
      ])
      for (const a of answers) expect(a.status).toBe(200)
      const outcomes = answers.map((a) => a.data.outcome).sort()
      expect(outcomes.filter((o) => o === "paid").length).toBeGreaterThanOrEqual(1)
      expect(outcomes.every((o) => o === "paid" || o === "already_paid")).toBe(true)
      // A retry of the same click after the answer was lost gets that click's result ("already_paid" when the
      // other admin's click won the race), and never a second charge (below).
      const retried = await charge(orderId, { ...body, idempotency_key: key })
      expect([answers[0].data.outcome, answers[1].data.outcome]).toContain(retried.data.outcome)

      const { payments } = await paymentsOfCollection(s, orderId, collectionId)
      expect(payments).toHaveLength(1)
      expect(payments[0].provider_id).toBe("pp_pgs_pgs")
      const charged = [...s.sandbox.sandbox.context.store.transactions.values()].filter(
        (tx: any) => tx.payment_method?.type === "saved_card" && tx.status === "APPROVED" && tx.reference === sessionFields(payments[0].data).reference,
      )
      expect(charged).toHaveLength(1)
      expect(charged[0].amount).toBe(2550)
      // The terminal authorizes: the admin is told the money is held, not taken, until a capture.
      expect(payments[0].captured_at).toBeNull()
      expect(answers.find((a) => a.data.outcome === "paid")!.data.message).toBe("Authorized on the saved card: it is captured as the order's other payments are (from the order, or on fulfillment).")
      if (!payments[0].captured_at) expect((await adminPost(s, `/admin/payments/${payments[0].id}/capture`)).status).toBe(200)
      expect((await owedByOrder(s, orderId)).pendingDifference).toBe(0)
    })

    it("tells the admin to send the pay link when the bank wants the customer, and charges nothing", async () => {
      const { orderId, collectionId, card } = await owingOrderOfCardSaver("redirect_interactive")
      const res = await charge(orderId, { payment_collection_id: collectionId, saved_card_id: card.id })
      expect(res.status).toBe(200)
      expect(res.data).toMatchObject({ outcome: "customer_needed", message: expect.stringMatching(/confirm this payment \(3-D Secure\).*pay link/) })
      expect((await paymentsOfCollection(s, orderId, collectionId)).payments).toHaveLength(0)
      expect((await owedByOrder(s, orderId)).owed).toHaveLength(1)
    })

    const chargeTo = (orderId: string, card: { id: string }) => async (collectionId: string) => {
      const res = await charge(orderId, { payment_collection_id: collectionId, saved_card_id: card.id })
      expect(res.data).toMatchObject({ outcome: "paid" })
    }

    it.each(ORDER_CHANGES_OWING_MORE)("charges the saved card for what %s sending out more than it takes back owes", async (_, change) => {
      const { orderId, card } = await orderOfCardSaver(s)
      await drillOrderChange(s, orderId, change, chargeTo(orderId, card))
    })

    it("charges the saved card for a draft order turned into an order for the card's owner", async () => {
      const { card, customerId } = await orderOfCardSaver(s)
      const orderId = await orderFromDraft(s, customerId)
      // A draft made through the Admin API with inline items gets no payment collection: one is made for what it owes (docs/pay-by-link.md).
      expect((await admin(s, "post", "/admin/payment-collections", { order_id: orderId, amount: s.seed.prices.eur })).status).toBe(200)
      const { collectionId, amount } = await owedCollection(s, orderId)
      expect(amount).toBe(s.seed.prices.eur)
      expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(s.seed.prices.eur)
      await chargeTo(orderId, card)(collectionId)
      const { payments } = await paymentsOfCollection(s, orderId, collectionId)
      expect(payments.map((p) => Number(p.amount))).toEqual([s.seed.prices.eur])
      if (!payments[0].captured_at) expect((await adminPost(s, `/admin/payments/${payments[0].id}/capture`)).status).toBe(200)
      expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(0)
    })

    it("refuses a card saved without the consent box (409, plain words): nothing sent to the gateway, nothing recorded in Medusa", async () => {
      // "Save this card" alone, as a checkout that did not ask the consent sends it.
      const { orderId, collectionId, card, customerId } = await owingOrderOfCardSaver("frictionless_approved", { consent: false })
      const [row] = await s.container().resolve<any>("pgs").listPgsSavedCards({ customer_id: customerId })
      expect(row).toMatchObject({ id: card.id, merchant_consent_at: null, merchant_consent: null })
      expect(s.sandbox.sandbox.context.store.storedCards.get(row.payment_method_id)!.tokenize_for).toBe("CUSTOMER_INITIATED_TRANSACTION")
      expect((await admin(s, "get", `/admin/pgs/orders/${orderId}/pay-link`)).data.chargeable_cards).toEqual([])

      const sentBefore = (await ledger()).length
      const sessionsBefore = (await sessionsOf(collectionId)).length
      const res = await charge(orderId, { payment_collection_id: collectionId, saved_card_id: card.id })
      expect(res.status).toBe(409)
      expect(res.data).toMatchObject({ outcome: "no_consent", message: "The customer did not agree to later charges by the shop on this card: send the pay link instead." })
      expect((await ledger()).length).toBe(sentBefore)
      expect((await sessionsOf(collectionId)).length).toBe(sessionsBefore)
      expect((await paymentsOfCollection(s, orderId, collectionId)).payments).toHaveLength(0)
      expect((await owedByOrder(s, orderId)).owed).toHaveLength(1)
    })

    it("refuses another customer's card (404) and names malformed fields (400)", async () => {
      const { orderId, collectionId } = await owingOrderOfCardSaver()
      const other = await customerWithSavedCard(s)
      const foreign = await charge(orderId, { payment_collection_id: collectionId, saved_card_id: other.card.id })
      expect(foreign.status).toBe(404)
      const invalid = await charge(orderId, { payment_collection_id: collectionId, saved_card_id: "not a card", idempotency_key: "x" })
      expect(invalid.status).toBe(400)
      expect(invalid.data.errors.map((e: any) => e.field).sort()).toEqual(["idempotency_key", "saved_card_id"])
    })

    it("tells the admin in plain words that the bank declined (insufficient funds), offers the pay link, and records nothing as paid", async () => {
      // Approved at checkout by the full simulator; the card's own scenario (insufficient funds) decides later charges.
      const { orderId, collectionId, card } = await owingOrderOfCardSaver("frictionless_insufficient_funds", { simulatedFlow: "VERSIONING_NOT_ENROLLED" })
      const res = await charge(orderId, { payment_collection_id: collectionId, saved_card_id: card.id })
      expect(res.status).toBe(200)
      expect(res.data).toEqual({ outcome: "declined", message: "The card was not charged: the bank declined it for insufficient funds. Send the customer the pay link instead." })
      // The gateway declined this charge once: its own session's reference, not any decline the gateway holds.
      const references = new Set((await sessionsOf(collectionId)).map((p) => sessionFields(p.data).reference))
      expect(references.size).toBe(1)
      const declined = (await ledger()).filter((e) => references.has(e.reference) && e.status === "DECLINED" && !e.replay)
      expect(declined).toHaveLength(1)
      expect((await paymentsOfCollection(s, orderId, collectionId)).payments).toHaveLength(0)
      const owed = await owedByOrder(s, orderId)
      expect(owed.owed).toHaveLength(1)
      expect(owed.pendingDifference).toBeGreaterThan(0)
    })

    it("charges once when the gateway charged but its answer was lost, and the admin retries the same click", async () => {
      const { orderId, collectionId, card } = await owingOrderOfCardSaver()
      const key = newKey()
      const body = { payment_collection_id: collectionId, saved_card_id: card.id, idempotency_key: key }
      // The gateway authorizes, then every answer to this click's authorize (and the client's own repeats) is cut.
      await s.sandbox.control("POST", "/_sandbox/faults", { target: "POST /api/transactions/authorize", kind: "drop", phase: "after", count: 3 })
      const lost = await charge(orderId, body)
      await s.sandbox.control("DELETE", "/_sandbox/faults")
      expect(lost.status).toBe(503)
      expect(lost.data).toMatchObject({ outcome: "unknown", message: expect.stringMatching(/Retry the same charge/) })
      // Nothing recorded twice: the gateway's webhook for the charge may already have recorded its one payment (seen in CI).
      expect((await paymentsOfCollection(s, orderId, collectionId)).payments.length).toBeLessThanOrEqual(1)

      const retried = await charge(orderId, body)
      expect(retried.status).toBe(200)
      expect(retried.data).toMatchObject({ outcome: "paid" })
      const { payments } = await paymentsOfCollection(s, orderId, collectionId)
      expect(payments).toHaveLength(1)
      const charged = (await ledger()).filter((e) => e.reference === sessionFields(payments[0].data).reference && e.status === "APPROVED" && !e.replay)
      expect(charged).toHaveLength(1)
      if (!payments[0].captured_at) expect((await adminPost(s, `/admin/payments/${payments[0].id}/capture`)).status).toBe(200)
      expect((await owedByOrder(s, orderId)).pendingDifference).toBe(0)
    })

    it("refuses a consent without save_card, or with unreadable words, naming the field (400)", async () => {
      const { token } = await s.registerCustomer()
      const cart = await s.createCart({ customerToken: token })
      const headers = { ...s.storeHeaders, authorization: `Bearer ${token}` }
      const collection = await s.api.post("/store/payment-collections", { cart_id: cart.id }, { headers })
      const start = (data: Record<string, unknown>) =>
        s.api.post(
          `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`,
          { provider_id: "pp_pgs_pgs", data: { payment_method: walletPayment(PLAIN_VISA), browser_info: BROWSER_INFO, ...data } },
          { headers, validateStatus: () => true },
        )
      const alone = await start({ merchant_consent: CONSENT_ASKED })
      expect(alone.status).toBe(400)
      expect(alone.data.message).toMatch(/^data\.merchant_consent needs data\.save_card: true/)
      const unreadable = await start({ save_card: true, merchant_consent: { ...CONSENT_ASKED, text: "I agree\u0007" } })
      expect(unreadable.status).toBe(400)
      expect(unreadable.data.message).toMatch(/data\.merchant_consent\.text must not contain control characters/)
    })

    it("tells the widget the checkout asks the consent, naming the shop", async () => {
      const cart = await s.createCart()
      const res = await s.api.get(`/store/pgs/payment-methods?cart_id=${cart.id}`, { headers: s.storeHeaders })
      expect(res.data.payment_methods.find((m: any) => m.identifier === "pgs")).toMatchObject({ saved_card_consent: { store_name: "Medusa Store" } })
    })
  },
)
