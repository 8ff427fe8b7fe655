/**
 * Raw card fields through the Direct API, for a merchant whose PCI DSS scope is SAQ D (option rawCardDataPciScope,
 * set only for the store of store-saq-d.spec.ts): the server encrypts them with the merchant key, they never appear
 * in the session data, and 3-D Secure runs as for any Direct API card.
 */
import { storeBody } from "../support/store"
import { BROWSER_INFO, ledger } from "../support/checkout"
import { directCart, PLAIN_VISA, requestAuthentication, runMethodStep } from "../support/checkout-direct"
import { sessionFields } from "../../support/session-fields"

const rawCard = (number: string) => ({ type: "card", number, cvv: "123", expiration_month: 12, expiration_year: new Date().getFullYear() + 2 })

/** The store option these tests need: the store-*.spec.ts that runs them boots with it. */
export const storeEnv = { PGS_RAW_CARD_PCI_SCOPE: "SAQ_D" }

export default storeBody(
  "raw card checkout for a merchant in PCI DSS scope SAQ D",
  (s) => {
    it("authorizes raw card fields encrypted on the server, keeping them out of the session data", async () => {
      const number = s.sandbox.testCard("frictionless_approved")
      const { cart, session } = await directCart(s, rawCard(number))
      expect(sessionFields(session.data)).toMatchObject({ integration: "direct_api", payment_method: { type: "card" } })
      expect(JSON.stringify(session.data)).not.toContain(number)
      // What the storefront sent is blanked in the public data; the encrypted fields travel sealed.
      expect(session.data.payment_method).toBeNull()
      expect(sessionFields(session.data).payment_method).toEqual({ type: "card" })
      const done = await s.completeCart(cart.id)
      expect(done.data.type).toBe("order")
      const tx = (await ledger(s.sandbox)).filter((e) => e.reference === sessionFields(session.data).reference && !e.replay)
      expect(tx).toEqual([expect.objectContaining({ transaction_type: "AUTHORIZE", status: "APPROVED" })])
      // The gateway decrypted what the server sent: it knows the card by its masked number only.
      const record = (await s.sandbox.control("GET", `/_sandbox/transactions/${tx[0].transaction_id}`)).body.record
      expect(record.payment_method.masked).toMatch(new RegExp(`${number.slice(-4)}$`))
    })

    it("runs 3-D Secure for raw card fields like any Direct API card", async () => {
      const { cart, session } = await directCart(s, rawCard(PLAIN_VISA), { simulated_flow: "VERSIONING_FINGERPRINT_A_FRICTIONLESS" })
      const first = await s.completeCart(cart.id)
      expect(first.data.error?.type).toBe("payment_requires_more_error")
      const fingerprint = (await s.api.get(`/store/pgs/payment-sessions/${session.id}/status`, { headers: s.storeHeaders })).data.payment_session
      expect(fingerprint.next_action.type).toBe("fingerprint")
      await runMethodStep(s.sandbox, fingerprint.next_action)
      const continued = await requestAuthentication(s, session.id, true)
      expect(continued.status).toBe(200)
      const done = await s.completeCart(cart.id)
      expect(done.data.type).toBe("order")
    })

    it("still refuses a card number that is not digits before any gateway call", async () => {
      const before = (await ledger(s.sandbox)).length
      const cart = await s.createCart()
      const collection = await s.api.post("/store/payment-collections", { cart_id: cart.id }, { headers: s.storeHeaders })
      const res = await s.api.post(
        `/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`,
        { provider_id: "pp_pgs_pgs", data: { payment_method: { ...rawCard("4111 1111"), number: "4111 1111" }, browser_info: BROWSER_INFO } },
        { headers: s.storeHeaders, validateStatus: () => true },
      )
      expect(res.status).toBe(400)
      expect(res.data.message).toMatch(/data\.payment_method\.number/)
      expect((await ledger(s.sandbox)).length).toBe(before)
    })
  },
)
