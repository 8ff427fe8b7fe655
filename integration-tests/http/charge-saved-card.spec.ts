/**
 * Charging what an order owes to the customer's saved card from the dashboard (merchant-initiated): only a card
 * saved with the customer's consent (option savedCardConsent, on for this suite's store), once for double clicks,
 * retries and two admins; when the bank wants the customer (3-D Secure), nothing is charged and the admin is told
 * to send the pay link.
 */
import { admin, customerWithSavedCard } from "./support/admin-pgs"
import { adminPost, BROWSER_INFO } from "./support/checkout"
import { orderFromDraft, orderOfCardSaver, orderOfCardSaverOwingMore, owedByOrder, owedCollection, paymentsOfCollection } from "./support/pay-link"
import { drillOrderChange } from "./support/order-change-drill"
import { claimOwingMore, exchangeOwingMore } from "./support/order-changes"
import { expectMedusaAndGatewayAgree } from "./support/agreement"
import { pgsStoreSuite } from "./support/store"

let clicks = 0
const newKey = () => `click-${Date.now().toString(36)}-${(clicks++).toString(36)}-abcdefgh`

pgsStoreSuite(
  "charging a saved card from the dashboard",
  (s) => {
    const owingOrderOfCardSaver = (scenario?: string) => orderOfCardSaverOwingMore(s, scenario)

    const charge = (orderId: string, body: Record<string, unknown>) =>
      admin(s, "post", `/admin/pgs/orders/${orderId}/charge-saved-card`, { browser_info: BROWSER_INFO, idempotency_key: newKey(), ...body })

    it("records the consent with the card, tokenized for merchant-initiated use, and offers it on the order", async () => {
      const { orderId, card, customerId } = await owingOrderOfCardSaver()
      const [row] = await s.container().resolve<any>("pgs").listPgsSavedCards({ customer_id: customerId })
      expect(row.merchant_consent_at).toBeInstanceOf(Date)
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
      // A retry of the same click after the answer was lost gets that click's result.
      const retried = await charge(orderId, { ...body, idempotency_key: key })
      expect(retried.data).toMatchObject({ outcome: "paid" })

      const { payments } = await paymentsOfCollection(s, orderId, collectionId)
      expect(payments).toHaveLength(1)
      expect(payments[0].provider_id).toBe("pp_pgs_pgs")
      const charged = [...s.sandbox.sandbox.context.store.transactions.values()].filter(
        (tx: any) => tx.payment_method?.type === "saved_card" && tx.status === "APPROVED" && tx.reference === payments[0].data.reference,
      )
      expect(charged).toHaveLength(1)
      expect(charged[0].amount).toBe(2550)
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

    it.each([
      ["an exchange", exchangeOwingMore],
      ["a claim", claimOwingMore],
    ])("charges the saved card for what %s sending out more than it takes back owes", async (_, change) => {
      const { orderId, card } = await orderOfCardSaver(s)
      await drillOrderChange(s, orderId, change, chargeTo(orderId, card))
    })

    it("charges the saved card for a draft order turned into an order for the card's owner", async () => {
      const { card, customerId } = await orderOfCardSaver(s)
      const orderId = await orderFromDraft(s, customerId)
      // Medusa gives a converted draft no payment collection; the dashboard's "Copy payment link" makes one.
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

    it("refuses a card saved without consent to charges by the shop, and another customer's card", async () => {
      const { orderId, collectionId } = await owingOrderOfCardSaver()
      const other = await customerWithSavedCard(s)
      const foreign = await charge(orderId, { payment_collection_id: collectionId, saved_card_id: other.card.id })
      expect(foreign.status).toBe(404)
      const invalid = await charge(orderId, { payment_collection_id: collectionId, saved_card_id: "not a card", idempotency_key: "x" })
      expect(invalid.status).toBe(400)
      expect(invalid.data.errors.map((e: any) => e.field).sort()).toEqual(["idempotency_key", "saved_card_id"])
    })
  },
  { env: { PGS_SAVED_CARD_CONSENT: "true" } },
)
