/**
 * The payment-collection page (money after checkout) lists the methods as the checkout does: the same region,
 * currency and terminal rules, and the terminal admin's names for them.
 */
import { orderOwingMore } from "../support/order-payments"
import { storeBody } from "../support/store"

export default storeBody("store: an order's payment collection lists its methods as the checkout does", (s) => {
  it("names the methods with the terminal admin's names, as the cart's method list does", async () => {
    const pgs = s.container().resolve<any>("pgs")
    const [terminal] = await pgs.createPgsTerminalSettings([{ terminal_id: "SBX-ALL-001", currency_codes: ["eur"], method_names: { pgs: { "sv-SE": "Bankkort" } } }])
    try {
      const { orderId, collectionId } = await orderOwingMore(s)
      const page = await s.api.get(`/store/pgs/payment-collections/${collectionId}?order_id=${orderId}`, { headers: s.storeHeaders })
      const card = page.data.payment_methods.find((m: { identifier: string }) => m.identifier === "pgs")
      expect(card.names).toEqual({ "sv-SE": "Bankkort" })
      const cart = await s.createCart({ currency_code: "eur" })
      const listed = (await s.api.get(`/store/pgs/payment-methods?cart_id=${cart.id}`, { headers: s.storeHeaders })).data.payment_methods
      expect(page.data.payment_methods.map((m: { provider_id: string }) => m.provider_id)).toEqual(listed.map((m: { provider_id: string }) => m.provider_id))
    } finally {
      await pgs.deletePgsTerminalSettings(terminal.id)
    }
  })
})
