/**
 * Network tokens from the storefront, for a store that turned that path on (option networkTokensFromStorefront:
 * its own server got the token from a wallet or a token service and its storefront passes it on). Off by default
 * (refused: behaviours/hostile-input.ts). The token is encrypted with the merchant key on the server, and a PAN_ONLY token
 * (no cryptogram, no ECI) still goes through 3-D Secure, as the spec says: "network-token skipped when a valid
 * cryptogram and ECI are provided".
 */
import { storeBody } from "../support/store"
import { BROWSER_INFO, ledger } from "../support/checkout"
import { currentSession, directCart, PLAIN_VISA } from "../support/checkout-direct"
import { sessionFields } from "../../support/session-fields"

const CRYPTOGRAM = { cryptogram: "AgAAAAAAAIR8CQrXcIhbQAAAAAA=", eci: "05" }
const networkToken = (tokenNumber: string, extra: Record<string, unknown> = {}) => ({
  type: "network-token",
  token_number: tokenNumber,
  expiration_month: 12,
  expiration_year: new Date().getFullYear() + 2,
  ...extra,
})

/** The store option these tests need: the store-*.spec.ts that runs them boots with it. */
export const storeEnv = { PGS_NETWORK_TOKENS_FROM_STOREFRONT: "true" }

export default storeBody(
  "network tokens from the storefront, where the store lets them through",
  (s) => {
    it("authorizes a network token with a cryptogram (encrypted on the server with the merchant key)", async () => {
      const number = s.sandbox.testCard("frictionless_approved")
      const { cart, session } = await directCart(s, networkToken(number, CRYPTOGRAM))
      // What the storefront sent is blanked (null) in the stored data; the plugin keeps only the method's type, and the
      // credentials live only in `sealed`.
      expect(session.data.payment_method).toBeNull()
      expect(sessionFields(session.data).payment_method).toEqual({ type: "network-token" })
      expect(JSON.stringify(session.data)).not.toContain(number)
      expect((await s.completeCart(cart.id)).data.type).toBe("order")
    })

    it("sends a PAN_ONLY network token through 3-D Secure, which a cryptogram and an ECI skip", async () => {
      const flow = { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" }
      const panOnly = await directCart(s, networkToken(PLAIN_VISA), flow)
      const first = await s.completeCart(panOnly.cart.id)
      expect([first.data.type, first.data.error?.type]).toEqual(["cart", "payment_requires_more_error"])
      const waiting = await currentSession(s, panOnly.cart.id)
      expect(waiting.status).toBe("requires_more")
      expect(waiting.data.next_action).toMatchObject({ type: "fingerprint", method_url: expect.any(String) })

      // The same card number and the same simulated flow with a cryptogram: no 3-D Secure step, the order is placed.
      const withCryptogram = await directCart(s, networkToken(PLAIN_VISA, CRYPTOGRAM), flow)
      expect((await s.completeCart(withCryptogram.cart.id)).data.type).toBe("order")
    })

    it("still checks the gateway's ECI rule, and refuses a token number or card fields outside a network token", async () => {
      const before = (await ledger(s.sandbox)).length
      const cart = await s.createCart()
      const collection = await s.api.post("/store/payment-collections", { cart_id: cart.id }, { headers: s.storeHeaders })
      const create = (data: Record<string, unknown>) =>
        s.api.post(`/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`, { provider_id: "pp_pgs_pgs", data }, { headers: s.storeHeaders, validateStatus: () => true })

      const noEci = await create({ payment_method: networkToken(PLAIN_VISA, { cryptogram: CRYPTOGRAM.cryptogram }), browser_info: BROWSER_INFO })
      expect([noEci.status, noEci.data.message]).toEqual([400, expect.stringMatching(/data\.payment_method\.eci is required with a cryptogram/)])
      const eciAlone = await create({ payment_method: networkToken(PLAIN_VISA, { eci: "05" }), browser_info: BROWSER_INFO })
      expect([eciAlone.status, eciAlone.data.message]).toEqual([400, expect.stringMatching(/data\.payment_method\.eci must be left out without a cryptogram/)])

      const stray = await create({ payment_method: { type: "wallet-one", token: "x" }, token_number: PLAIN_VISA, browser_info: BROWSER_INFO })
      expect([stray.status, stray.data.errors]).toEqual([400, [{ field: "data.token_number", message: expect.stringMatching(/^is a network token's number outside a network token/) }]])
      const card = await create({ payment_method: { type: "card", number: PLAIN_VISA, cvv: "123", expiration_month: 12, expiration_year: 2030 }, browser_info: BROWSER_INFO })
      expect(card.status).toBe(400)
      expect(card.data.errors.map((e: { field: string }) => e.field)).toEqual(["data.payment_method.number", "data.payment_method.cvv"])
      expect((await ledger(s.sandbox)).length).toBe(before)
    })
  },
)
