/**
 * A redirect method's Pay in two store calls (issue 48): the session routes (a cart's, an order's collection's) take
 * the browser's client info in the same body (`client_info`) and record it on the new session as the client-info
 * route does — the IP from the request, the payer from the cart or the order, never from the body — so the call
 * after it (the cart's completion, the collection's apply) hands back the bank's page. Refused in words when the
 * client info is malformed or names what the server reads itself; the separate client-info call still works
 * (a store running an older widget).
 */
import { sessionFields } from "../../support/session-fields"
import { BROWSER_INFO, payInFrame, storePost } from "../support/checkout"
import { applyPayment, collectionSession, orderOwingMore } from "../support/order-payments"
import { clientInfo, providerId, sessionRow, sessionStatus } from "../support/redirect"
import { storeBody } from "../support/store"

const OPEN_BANKING = providerId("pgs-open-banking")

export default storeBody("store: a payment session and the browser's client info in one call", (s) => {
  const startSession = (cartId: string, body: unknown) => storePost(s, `/store/pgs/carts/${cartId}/payment-sessions`, body)

  /** What the gateway recorded for the session's transaction: the shopper's IP and the payer it was sent. */
  async function gatewayRecordOf(sessionId: string) {
    const transactionId = sessionFields((await sessionRow(s, sessionId)).data).transaction_id
    return (await s.sandbox.control("GET", `/_sandbox/transactions/${transactionId}`)).body.record
  }

  it("starts online banking with the browser's data in one call; the completion after it hands back the bank's page, the gateway told the shopper's IP", async () => {
    const cart = await s.createCart({ currency_code: "eur" })
    const started = await startSession(cart.id, { provider_id: OPEN_BANKING, client_info: { browser_info: BROWSER_INFO } })
    expect(started.status).toBe(200)
    const session = started.data.payment_session
    expect(session).toMatchObject({ provider_id: OPEN_BANKING, status: "pending", payment_collection_id: expect.stringMatching(/^pay_col_/) })
    // Recorded sealed: the store's answer (and Medusa's public session data) does not carry the browser's details.
    expect(JSON.stringify(session.data)).not.toContain(BROWSER_INFO.user_agent)

    const done = await s.completeCart(cart.id)
    expect(done.status).toBe(200)
    expect(done.data.error?.type).toBe("payment_requires_more_error")
    expect((await sessionStatus(s, session.id)).next_action).toMatchObject({ type: "redirect", url: expect.any(String) })
    expect((await gatewayRecordOf(session.id)).customer_ip).toEqual(expect.any(String))
  })

  it("keeps the separate client-info call for an older widget: a session started without client info is refused at completion until the call is made", async () => {
    const cart = await s.createCart({ currency_code: "eur" })
    const started = await startSession(cart.id, { provider_id: OPEN_BANKING })
    expect(started.status).toBe(200)
    const refused = await s.completeCart(cart.id)
    expect(refused.status).toBe(400)
    expect(refused.data.message).toMatch(/needs the shopper's IP address: call POST \/store\/pgs\/payment-sessions\/:id\/client-info/)
    expect((await clientInfo(s, started.data.payment_session.id, { browser_info: BROWSER_INFO })).status).toBe(200)
    const done = await s.completeCart(cart.id)
    expect(done.data.error?.type).toBe("payment_requires_more_error")
  })

  it("refuses in words client info it does not take — not an object, an IP or payer from the browser, malformed browser data — before any collection is made", async () => {
    const cart = await s.createCart({ currency_code: "eur" })
    const refusals: Array<[unknown, RegExp]> = [
      ["yes", /client_info/],
      [[BROWSER_INFO], /client_info/],
      [{ customer_ip: "203.0.113.9" }, /customer_ip/],
      [{ payer: { email: "someone@example.com" } }, /payer/],
      [{ browser_info: { ...BROWSER_INFO, screen_width: "wide" } }, /screen_width/],
      [{ browser_info: { ...BROWSER_INFO, user_agent: "" } }, /user_agent/],
      [{ browser_info: "Mozilla/5.0" }, /browser_info/],
    ]
    for (const [client_info, words] of refusals) {
      const res = await startSession(cart.id, { provider_id: OPEN_BANKING, client_info })
      expect({ status: res.status, message: res.data.message }).toEqual({ status: 400, message: expect.stringMatching(words) })
    }
    const read = await s.api.get(`/store/carts/${cart.id}?fields=id,*payment_collection`, { headers: s.storeHeaders })
    expect(read.data.cart.payment_collection ?? null).toBeNull()
  })

  it("refuses client info on a completed cart as it refuses any new session there (409), so a second tab finds the order", async () => {
    const cart = await s.createCart({ currency_code: "eur" })
    const card = (await startSession(cart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const { transactionId } = await payInFrame(s.sandbox, card, s.sandbox.testCard("frictionless_approved"))
    const placed = await storePost(s, `/store/carts/${cart.id}/complete`, { pgs_transaction: { payment_session_id: card.id, transaction_id: transactionId } })
    expect(placed.data.type).toBe("order")
    const again = await startSession(cart.id, { provider_id: OPEN_BANKING, client_info: { browser_info: BROWSER_INFO } })
    expect(again.status).toBe(409)
    expect(again.data.message).toBe(`Cart ${cart.id} is already completed`)
  })

  it("pays an order's collection by online banking in two calls: the session with the browser's data, then apply hands back the bank's page", async () => {
    const { collectionId } = await orderOwingMore(s)
    const bad = await collectionSession(s, collectionId, { provider_id: OPEN_BANKING, client_info: { customer_ip: "203.0.113.9" } })
    expect(bad.status).toBe(400)
    expect(bad.data.message).toMatch(/customer_ip/)
    const started = await collectionSession(s, collectionId, { provider_id: OPEN_BANKING, client_info: { browser_info: BROWSER_INFO } })
    expect(started.status).toBe(200)
    expect(JSON.stringify(started.data.payment_session.data)).not.toContain(BROWSER_INFO.user_agent)
    const applied = await applyPayment(s, collectionId, started.data.payment_session.id)
    expect(applied.data.status).toBe("requires_more")
    expect(applied.data.payment_session.data.next_action).toMatchObject({ type: "redirect", url: expect.any(String) })
    expect((await gatewayRecordOf(started.data.payment_session.id)).customer_ip).toEqual(expect.any(String))
  })
})
