/**
 * The widget's store calls in as few round trips as Medusa allows (issue 48): POST /store/pgs/carts/:id/payment-sessions
 * makes the cart's payment collection and session in one call (Medusa's own workflows), and Medusa's cart completion
 * takes the card fields' transaction (`pgs_transaction`), attached and checked with the gateway before Medusa
 * completes. Both are routes an attacker can call too: anonymous, repeated, with bodies of any shape.
 */
import { attachTransaction, payInFrame, storePost } from "../support/checkout"
import { storeBody, SYSTEM_PROVIDER_ID } from "../support/store"

export default storeBody("store: a cart's session in one call, and completion with the card's transaction", (s) => {
  const startSession = (cartId: string, body: unknown) => storePost(s, `/store/pgs/carts/${cartId}/payment-sessions`, body)
  const complete = (cartId: string, body?: unknown) => storePost(s, `/store/carts/${cartId}/complete`, body)
  const startSessionAs = (token: string, cartId: string) =>
    s.api.post(`/store/pgs/carts/${cartId}/payment-sessions`, { provider_id: "pp_pgs_pgs" }, { headers: { ...s.storeHeaders, authorization: `Bearer ${token}` }, validateStatus: () => true })
  const sessionsOf = async (cartId: string) =>
    (await s.api.get(`/store/carts/${cartId}?fields=id,*payment_collection.payment_sessions`, { headers: s.storeHeaders })).data.cart.payment_collection
      .payment_sessions as { id: string; provider_id: string }[]

  it("makes the cart's payment collection and card session in one call; the next call uses that collection and replaces the session", async () => {
    const cart = await s.createCart()
    const first = await startSession(cart.id, { provider_id: "pp_pgs_pgs" })
    expect(first.status).toBe(200)
    expect(first.data.payment_session).toMatchObject({ provider_id: "pp_pgs_pgs", status: "pending", payment_collection_id: expect.stringMatching(/^pay_col_/) })
    expect(first.data.payment_session.data).toMatchObject({ integration: "embedded_fields", gateway_session_id: expect.any(String), client_key: expect.any(String) })
    // The methods' list names the same script the session does, so the widget asks for it while the session is made.
    const methods = await s.api.get(`/store/pgs/payment-methods?cart_id=${cart.id}`, { headers: s.storeHeaders })
    const card = methods.data.payment_methods.find((m: { identifier: string }) => m.identifier === "pgs")
    expect(card.script_url).toBe(first.data.payment_session.data.script_url)
    expect(card.script_url).toMatch(/\/embedded-fields\.js$/)

    const second = await startSession(cart.id, { provider_id: "pp_pgs_pgs" })
    expect(second.status).toBe(200)
    expect(second.data.payment_session.payment_collection_id).toBe(first.data.payment_session.payment_collection_id)
    expect((await sessionsOf(cart.id)).map((p) => p.id)).toEqual([second.data.payment_session.id]) // Medusa keeps the newest
  })

  it("answers the cart's unpaid card session again when asked to reuse it (a reloaded checkout), and makes a new one once it was paid in, for another customer, or with session data", async () => {
    const owner = await s.registerCustomer()
    const cart = await s.createCart({ customerToken: owner.token })
    const reuse = { provider_id: "pp_pgs_pgs", reuse: true }
    const first = (await startSession(cart.id, reuse)).data.payment_session // no collection yet: made
    const again = await startSession(cart.id, reuse)
    expect(again.status).toBe(200)
    expect(again.data.payment_session).toMatchObject({ id: first.id, payment_collection_id: first.payment_collection_id, status: "pending" })
    expect(again.data.payment_session.data).toMatchObject({ integration: "embedded_fields", gateway_session_id: first.data.gateway_session_id })
    expect((await sessionsOf(cart.id)).map((p) => p.id)).toEqual([first.id])
    // The owner signed in: a session made without their account is not theirs to reuse, and theirs not a guest's.
    const asOwner = await s.api.post(`/store/pgs/carts/${cart.id}/payment-sessions`, reuse, { headers: { ...s.storeHeaders, authorization: `Bearer ${owner.token}` } })
    expect(asOwner.data.payment_session.id).not.toBe(first.id)
    const asGuest = (await startSession(cart.id, reuse)).data.payment_session
    expect(asGuest.id).not.toBe(asOwner.data.payment_session.id)
    // Paid in (here declined, as the store recorded it): never answered again, a new session.
    const { transactionId } = await payInFrame(s.sandbox, asGuest, s.sandbox.testCard("frictionless_insufficient_funds"))
    const attached = await attachTransaction(s, asGuest.id, transactionId)
    expect({ status: attached.status, body: attached.data }).toMatchObject({ status: 200 })
    const afterPaying = (await startSession(cart.id, reuse)).data.payment_session
    expect(afterPaying.id).not.toBe(asGuest.id)
    // Session data asks for a session of its own.
    const withData = (await startSession(cart.id, { ...reuse, data: { note: "x" } })).data.payment_session
    expect(withData.id).not.toBe(afterPaying.id)
    expect((await startSession(cart.id, { provider_id: "pp_pgs_pgs", reuse: "yes" })).data.message).toMatch(/reuse/)
  })

  it("gives two calls at once on a cart without a collection one collection between them", async () => {
    const cart = await s.createCart()
    const both = await Promise.all([startSession(cart.id, { provider_id: "pp_pgs_pgs" }), startSession(cart.id, { provider_id: "pp_pgs_pgs" })])
    expect(both.map((res) => res.status)).toEqual([200, 200])
    expect(new Set(both.map((res) => res.data.payment_session.payment_collection_id)).size).toBe(1)
  })

  it("gives calls at once that ask to reuse one card session between them (a checkout reloaded while its first call runs), so none is told it expired", async () => {
    const cart = await s.createCart()
    const reuse = { provider_id: "pp_pgs_pgs", reuse: true }
    const all = await Promise.all([1, 2, 3].map(() => startSession(cart.id, reuse)))
    expect(all.map((res) => res.status)).toEqual([200, 200, 200])
    const ids = new Set(all.map((res) => res.data.payment_session.id))
    expect(ids.size).toBe(1)
    expect((await sessionsOf(cart.id)).map((p) => p.id)).toEqual([...ids]) // the one session every page holds is the cart's
    // The owner and a guest asking at once on the owner's cart never share: the session made for one is not the other's.
    const owner = await s.registerCustomer()
    const owned = await s.createCart({ customerToken: owner.token })
    const [asOwner, asGuest] = await Promise.all([
      s.api.post(`/store/pgs/carts/${owned.id}/payment-sessions`, reuse, { headers: { ...s.storeHeaders, authorization: `Bearer ${owner.token}` } }),
      startSession(owned.id, reuse),
    ])
    expect([asOwner.status, asGuest.status]).toEqual([200, 200])
    expect(asOwner.data.payment_session.id).not.toBe(asGuest.data.payment_session.id)
  })

  it("refuses in words what cannot start, before any collection is made: an unknown cart, a bad body, a method the cart cannot use", async () => {
    const unknown = await startSession("cart_01JZZZZZZZZZZZZZZZZZZZZZZZ", { provider_id: "pp_pgs_pgs" })
    expect(unknown.status).toBe(404)
    expect(unknown.data.message).toBe("Cart cart_01JZZZZZZZZZZZZZZZZZZZZZZZ was not found")

    const cart = await s.createCart({ currency_code: "eur" })
    const missing = await startSession(cart.id, {})
    expect(missing.status).toBe(400)
    expect(missing.data.message).toMatch(/provider_id/)
    const notAProvider = await startSession(cart.id, { provider_id: "pp_pgs_pgs'; drop table cart;--" })
    expect(notAProvider.status).toBe(400)
    expect(notAProvider.data.message).toMatch(/provider_id/)
    const dataNotAnObject = await startSession(cart.id, { provider_id: "pp_pgs_pgs", data: ["x"] })
    expect(dataNotAnObject.status).toBe(400)
    expect(dataNotAnObject.data.message).toMatch(/data/)
    const upi = await startSession(cart.id, { provider_id: "pp_pgs-upi_pgs" }) // INR only
    expect(upi.status).toBe(400)
    expect(upi.data.message).toBe("provider_id pp_pgs-upi_pgs cannot serve this cart")
    const notPgs = await startSession(cart.id, { provider_id: SYSTEM_PROVIDER_ID })
    expect(notPgs.status).toBe(400)
    const read = await s.api.get(`/store/carts/${cart.id}?fields=id,*payment_collection`, { headers: s.storeHeaders })
    expect(read.data.cart.payment_collection ?? null).toBeNull()
  })

  it("completes the cart with the card's transaction named in the completion: attached, checked with the gateway, one order however often it is asked", async () => {
    const cart = await s.createCart()
    const session = (await startSession(cart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
    const named = { pgs_transaction: { payment_session_id: session.id, transaction_id: transactionId } }
    const done = await complete(cart.id, named)
    expect(done.status).toBe(200)
    expect(done.data.type).toBe("order")
    const again = await complete(cart.id, named)
    expect(again.status).toBe(200)
    expect(again.data.order.id).toBe(done.data.order.id)
  })

  it("answers a declined card in the completion as Medusa answers a refused authorization (200, the cart, the error), with the session saying why", async () => {
    const cart = await s.createCart()
    const session = (await startSession(cart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_insufficient_funds"))
    const done = await complete(cart.id, { pgs_transaction: { payment_session_id: session.id, transaction_id: transactionId } })
    expect(done.status).toBe(200)
    expect(done.data).toMatchObject({ type: "cart", cart: { id: cart.id, completed_at: null }, error: { type: "payment_authorization_error" } })
    const declined = done.data.cart.payment_collection.payment_sessions.find((p: { id: string }) => p.id === session.id)
    expect(declined.status).toBe("error")
    expect(declined.data.error.message).toMatch(/declined/i)
    expect(JSON.stringify(done.data)).not.toContain(transactionId) // the store keeps the gateway's id to itself
  })

  it("refuses in the completion what the transaction route refuses: another cart's session, another session's transaction, a malformed body; without the key the completion is Medusa's alone", async () => {
    const paidCart = await s.createCart()
    const paidSession = (await startSession(paidCart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const { transactionId } = await payInFrame(s.sandbox, paidSession, s.sandbox.testCard("frictionless_approved"))
    const cart = await s.createCart()
    const session = (await startSession(cart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session

    const othersSession = await complete(cart.id, { pgs_transaction: { payment_session_id: paidSession.id, transaction_id: transactionId } })
    expect(othersSession.status).toBe(404)
    expect(othersSession.data.message).toBe(`Payment session ${paidSession.id} is not a payment session of cart ${cart.id}`)
    const stolen = await complete(cart.id, { pgs_transaction: { payment_session_id: session.id, transaction_id: transactionId } })
    expect(stolen.status).toBe(409)
    expect(stolen.data.message).toMatch(/does not belong to this payment session/)
    for (const [body, field] of [
      [{ pgs_transaction: { payment_session_id: "not-a-session", transaction_id: transactionId } }, "pgs_transaction.payment_session_id"],
      [{ pgs_transaction: { payment_session_id: session.id, transaction_id: "" } }, "pgs_transaction.transaction_id"],
      [{ pgs_transaction: { payment_session_id: session.id, transaction_id: transactionId, amount: 1 } }, "pgs_transaction"],
      [{ pgs_transaction: "trx" }, "pgs_transaction"],
    ] as const) {
      const res = await complete(cart.id, body)
      expect({ field, status: res.status }).toEqual({ field, status: 400 })
      expect(res.data.errors.map((e: { field: string }) => e.field)).toContain(field)
    }
    // Nothing attached: Medusa's own completion finds the card unpaid, and the paid cart still completes with its own.
    const plain = await complete(cart.id)
    expect(plain.status).toBe(200)
    expect(plain.data.type).toBe("cart")
    expect(plain.data.error.type).toBe("payment_requires_more_error")
    expect((await complete(paidCart.id, { pgs_transaction: { payment_session_id: paidSession.id, transaction_id: transactionId } })).data.type).toBe("order")
  })

  it("refuses a new session on a completed cart, whose collection is the order's, and attaches nothing in a repeated completion", async () => {
    const cart = await s.createCart()
    const session = (await startSession(cart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_approved"))
    const order = (await complete(cart.id, { pgs_transaction: { payment_session_id: session.id, transaction_id: transactionId } })).data.order
    const again = await startSession(cart.id, { provider_id: "pp_pgs_pgs" })
    expect(again.status).toBe(409)
    expect(again.data.message).toBe(`Cart ${cart.id} is already completed`)
    expect((await sessionsOf(cart.id)).map((p) => p.id)).toEqual([session.id]) // the order's payment stays as it is
    // Another transaction named in a completion of the completed cart: Medusa answers the order, nothing is attached.
    const other = await s.createCart()
    const otherSession = (await startSession(other.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const otherPaid = await payInFrame(s.sandbox, otherSession, s.sandbox.testCard("frictionless_approved"))
    const repeated = await complete(cart.id, { pgs_transaction: { payment_session_id: session.id, transaction_id: otherPaid.transactionId } })
    expect(repeated.status).toBe(200)
    expect(repeated.data.order.id).toBe(order.id)
  })

  it("gives a logged-in shopper's account to the session only on their own cart", async () => {
    const owner = await s.registerCustomer()
    const stranger = await s.registerCustomer()
    const cart = await s.createCart({ customerToken: owner.token })
    const asStranger = await startSessionAs(stranger.token, cart.id)
    expect(asStranger.status).toBe(200)
    const customerOf = async (sessionId: string) =>
      (await s.container().resolve("query").graph({ entity: "payment_session", fields: ["context"], filters: { id: sessionId } })).data[0]?.context?.customer?.id ?? null
    expect(await customerOf(asStranger.data.payment_session.id)).toBeNull()
    const asOwner = await startSessionAs(owner.token, cart.id)
    expect(await customerOf(asOwner.data.payment_session.id)).toBe(owner.customer.id)
    // The store's answers never show a session's context (the customer record and the gateway's account holder).
    const read = await s.api.get(`/store/carts/${cart.id}?fields=id,*payment_collection.payment_sessions`, { headers: { ...s.storeHeaders, authorization: `Bearer ${owner.token}` } })
    expect(read.data.cart.payment_collection.payment_sessions[0]).not.toHaveProperty("context")
  })

  it("refuses a transaction id that would walk to another of the gateway's paths, and card data in the completion", async () => {
    const cart = await s.createCart()
    const session = (await startSession(cart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    for (const transaction_id of [".", ".."]) {
      const res = await complete(cart.id, { pgs_transaction: { payment_session_id: session.id, transaction_id } })
      expect({ transaction_id, status: res.status }).toEqual({ transaction_id, status: 400 })
      expect(JSON.stringify(res.data)).toMatch(/transaction_id/)
    }
    const card = await complete(cart.id, { pgs_transaction: { payment_session_id: session.id, transaction_id: "4111111111111111" } })
    expect(card.status).toBe(400)
    expect(JSON.stringify(card.data)).toMatch(/pgs_transaction\.transaction_id/)
  })
})
