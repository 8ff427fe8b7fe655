/**
 * Direct API card payments (wallet token, saved card, ...): the gateway is called at cart completion; 3-D Secure
 * steps come back as requires_more with the next step in the session data, the shopper's browser runs them and
 * our store routes (or our notification URL) continue the authentication; completing the cart again places the order.
 * How tests pick a 3-D Secure flow: a storefront cannot set gateway metadata, so in the test environment only the
 * provider forwards `simulated_flow` from the session data to the sandbox (refused in production).
 */
import { ContainerRegistrationKeys } from "@medusajs/framework/utils"
import { storeBody } from "../support/store"
import { adminPost, approvedOperations, BROWSER_INFO, ledger, storePost } from "../support/checkout"
import { waitFor } from "../../support/sandbox"
import { processedEvent } from "../support/webhooks"
import {
  authenticationCompleted,
  challengedCart,
  currentSession,
  customerIpRecordedFor,
  directCart,
  PLAIN_VISA,
  storedTransactionId,
  runChallenge,
  walletPayment,
} from "../support/checkout-direct"
import { sessionFields } from "../../support/session-fields"

export default storeBody("card checkout with the Direct API", (s) => {
  it("authorizes a wallet token at cart completion and keeps the token and the browser's details out of the session data", async () => {
    const payment = walletPayment(s.sandbox.testCard("frictionless_approved"))
    const { cart, session } = await directCart(s, payment)
    expect(sessionFields(session.data)).toMatchObject({ integration: "direct_api", payment_method: { type: "wallet-one" }, browser_info: null, sealed: expect.any(String) })
    expect(JSON.stringify(session.data)).not.toContain(payment.token)
    expect(JSON.stringify(session.data)).not.toContain(BROWSER_INFO.user_agent)
    const done = await s.completeCart(cart.id)
    expect(done.data.type).toBe("order")
    const tx = (await ledger(s.sandbox)).filter((e) => e.reference === sessionFields(session.data).reference && !e.replay)
    expect(tx).toHaveLength(1)
    expect(tx[0]).toMatchObject({ transaction_type: "AUTHORIZE", amount: 2550, status: "APPROVED" })
    // The gateway got them from the sealed blob (3-D Secure needs them).
    const record = (await s.sandbox.control("GET", `/_sandbox/transactions/${tx[0].transaction_id}`)).body.record
    expect(record.browser_info).toMatchObject({ user_agent: BROWSER_INFO.user_agent, screen_width: BROWSER_INFO.screen_width })
  })

  it("keeps no browser details, shopper IP or sealed credentials on the payment or its session once the gateway approved it", async () => {
    // Not approved: the session keeps them, sealed (a refused request may be sent again from them).
    const declined = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_insufficient_funds")))
    expect((await s.completeCart(declined.cart.id)).data.type).toBe("cart")
    const refused = await currentSession(s, declined.cart.id)
    expect(refused.data.error.message).toMatch(/declined/i)
    expect(refused.data).toMatchObject({ browser_info: null, sealed: expect.any(String) })

    const { cart, session } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    // The storefront's client-info call records the shopper's IP on the session (a redirect method needs it), sealed.
    const told = await storePost(s, `/store/pgs/payment-sessions/${session.id}/client-info`, { browser_info: BROWSER_INFO })
    expect(sessionFields(told.data.payment_session.data)).toMatchObject({ sealed: expect.any(String) })
    expect(JSON.stringify(told.data.payment_session.data)).not.toContain(BROWSER_INFO.user_agent)
    const completed = await s.completeCart(cart.id)
    expect(completed.data.type).toBe("order")
    const paymentModule = s.container().resolve<any>("payment")
    const [payment] = await paymentModule.listPayments({ payment_session_id: session.id })
    const stored = await paymentModule.retrievePaymentSession(session.id)
    const single = { browser_info: null, customer_ip: null, sealed: null }
    expect(sessionFields(payment.data)).toMatchObject({ ...single, session_id: session.id, gateway_status: "APPROVED", transaction_id: expect.any(String), payment_method: { type: "wallet-one" } })
    expect(sessionFields(stored.data)).toMatchObject({ ...single, gateway_status: "APPROVED" })
    // A late client-info call does not write them back.
    const late = await storePost(s, `/store/pgs/payment-sessions/${session.id}/client-info`, { browser_info: BROWSER_INFO })
    expect(late.status).toBe(200)
    expect(sessionFields((await paymentModule.retrievePaymentSession(session.id)).data)).toMatchObject(single)
    for (const data of [payment.data, stored.data]) expect(JSON.stringify(data)).not.toContain(BROWSER_INFO.user_agent)
    // Nor once the order is canceled and the authorization voided, with the gateway's message about it applied.
    expect((await adminPost(s, `/admin/orders/${completed.data.order.id}/cancel`, {})).status).toBe(200)
    const [voided] = await approvedOperations(s.sandbox, sessionFields(payment.data).transaction_id, "VOID")
    await processedEvent(s, voided!.transaction_id)
    const afterVoid = await storePost(s, `/store/pgs/payment-sessions/${session.id}/client-info`, { browser_info: BROWSER_INFO })
    expect(afterVoid.status).toBe(200)
    const [canceled] = await paymentModule.listPayments({ payment_session_id: session.id })
    expect(canceled.canceled_at).not.toBeNull()
    for (const data of [canceled.data, (await paymentModule.retrievePaymentSession(session.id)).data]) {
      expect(sessionFields(data)).toMatchObject(single)
      expect(JSON.stringify(data)).not.toContain(BROWSER_INFO.user_agent)
    }
  })

  it("completes and captures a checkout whose session an earlier version stored with public keys, moving its fields into data.internal", async () => {
    const { cart, session } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    // The session as an earlier version of the plugin left it: every field a public key, no `internal`.
    const { internal, ...publicKeys } = (await knex("payment_session").where({ id: session.id }).first("data")).data
    const earlier = { ...publicKeys, ...JSON.parse(internal) }
    await knex("payment_session").where({ id: session.id }).update({ data: JSON.stringify(earlier) })

    expect((await s.completeCart(cart.id)).data.type).toBe("order")
    const paymentModule = s.container().resolve<any>("payment")
    const stored = (await paymentModule.retrievePaymentSession(session.id)).data
    // Its public copies are null once written (Medusa keeps a key the provider leaves out); the internal ones are read.
    expect(stored).toMatchObject({ reference: null, amount_minor: null, terminal_id: null, gateway_status: "APPROVED", internal: expect.any(String) })
    expect(sessionFields(stored)).toMatchObject({ reference: earlier.reference, amount_minor: 2550, terminal_id: earlier.terminal_id })
    const [payment] = await paymentModule.listPayments({ payment_session_id: session.id })
    expect(sessionFields(payment.data)).toMatchObject({ reference: earlier.reference, transaction_id: expect.any(String) })
    expect(payment.data.reference ?? null).toBeNull()

    expect((await adminPost(s, `/admin/payments/${payment.id}/capture`)).status).toBe(200)
    const captures = (await ledger(s.sandbox)).filter((e) => e.reference === earlier.reference && e.transaction_type === "CAPTURE" && !e.replay)
    expect(captures).toMatchObject([{ status: "APPROVED", amount: 2550 }])
  })

  it("finds the gateway's approval of a Direct API checkout already recorded: the webhook changes nothing", async () => {
    const { cart } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    // The approval is sent only once the order is placed (the one sent during completion may be processed first).
    await s.sandbox.control("DELETE", "/_sandbox/webhooks")
    try {
      expect((await s.completeCart(cart.id)).data.type).toBe("order")
    } finally {
      await s.sandbox.control("POST", "/_sandbox/webhooks", { url: s.webhookUrl })
    }
    const transactionId = await storedTransactionId(s, cart.id)
    await s.sandbox.control("POST", `/_sandbox/transactions/${transactionId}/webhook`)
    expect(await processedEvent(s, transactionId!)).toMatchObject({ outcome: "ignored:already_recorded", error: null })
  })

  it("runs 3-D Secure fingerprint and challenge, and places the order once the shopper approves", async () => {
    const { cart, session, next } = await challengedCart(s)
    await runChallenge(s.sandbox, next, "approve")
    const completed = await authenticationCompleted(s, session.id, "Y")
    expect(completed.status).toBe(200)
    expect(completed.data.payment_session).toMatchObject({ status: "authorized", data: { gateway_status: "APPROVED", next_action: null } })
    const done = await s.completeCart(cart.id)
    expect(done.data.type).toBe("order")
  })

  it("records the decline when the shopper refuses the challenge, and places no order", async () => {
    const { cart, session, next } = await challengedCart(s)
    await runChallenge(s.sandbox, next, "decline")
    const completed = await authenticationCompleted(s, session.id, "N")
    expect(completed.status).toBe(200)
    expect(completed.data.payment_session.status).toBe("error")
    expect(completed.data.payment_session.data.error.message).toMatch(/declined/i)
    const done = await s.completeCart(cart.id)
    expect(done.data.type).not.toBe("order")
  })

  it("completes authentication from the cres the ACS posts to our notification URL and tells the storefront", async () => {
    const { cart, session, next } = await challengedCart(s)
    const cresForm = await runChallenge(s.sandbox, next, "approve")
    const page = await s.api.post(`/hooks/pgs/three-ds/notification?session_id=${session.id}`, new URLSearchParams({ cres: cresForm.fields.cres }).toString(), {
      headers: { "content-type": "application/x-www-form-urlencoded" },
      validateStatus: () => true,
    })
    expect(page.status).toBe(200)
    expect(page.headers["content-type"]).toMatch(/text\/html/)
    expect(page.data).toContain("PGS_3DS_COMPLETE")
    expect(page.data).toContain(session.id)
    expect((await currentSession(s, cart.id)).status).toBe("authorized")
    const done = await s.completeCart(cart.id)
    expect(done.data.type).toBe("order")
  })

  it("refuses a 3-D Secure step the session is not waiting for", async () => {
    const { session } = await directCart(s, walletPayment(PLAIN_VISA, "PAN_ONLY"), { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" })
    const res = await authenticationCompleted(s, session.id, "Y")
    expect(res.status).toBe(409)
    expect(res.data.message).toMatch(/not waiting for a 3-D Secure challenge/)
    const bad = await authenticationCompleted(s, session.id, "maybe")
    expect(bad.status).toBe(400)
  })

  it("charges once when the storefront completes a Direct API cart 20 times at once", async () => {
    const { cart, session } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    const results = await Promise.all(Array.from({ length: 20 }, () => s.completeCart(cart.id)))
    const orderIds = new Set(results.filter((r) => r.data?.type === "order").map((r) => r.data.order.id))
    expect(orderIds.size).toBe(1)
    const created = (await ledger(s.sandbox)).filter((e) => e.reference === sessionFields(session.data).reference && !e.replay)
    expect(created).toHaveLength(1)
  })

  it("records the shopper's browser data and IP (both sealed, out of the cart the store serves) from the shopper's own request, and sends them to the gateway", async () => {
    const { cart, session } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
    const res = await storePost(s, `/store/pgs/payment-sessions/${session.id}/client-info`, { browser_info: { ...BROWSER_INFO, screen_width: 390 } })
    expect(res.status).toBe(200)
    expect(res.data.payment_session.data.browser_info).toBeNull()
    // Sealed: the IP is not in the session data Medusa serves with the store's cart.
    for (const data of [res.data.payment_session.data, (await currentSession(s, cart.id)).data]) {
      expect(sessionFields(data).customer_ip ?? null).toBeNull()
      expect(JSON.stringify(data)).not.toMatch(/127\.0\.0\.1|::1\b/)
    }
    expect((await s.completeCart(cart.id)).data.type).toBe("order")
    const [tx] = (await ledger(s.sandbox)).filter((e) => e.reference === sessionFields(session.data).reference && !e.replay)
    const record = (await s.sandbox.control("GET", `/_sandbox/transactions/${tx.transaction_id}`)).body.record
    expect(record.browser_info).toMatchObject({ user_agent: BROWSER_INFO.user_agent, screen_width: 390 })
    expect(record.customer_ip).toMatch(/^(127\.0\.0\.1|::1)$/)
  })

  it("sends the gateway the connection's address, not an X-Forwarded-For the client wrote, when no proxy is configured", async () => {
    expect(await customerIpRecordedFor(s, { "x-forwarded-for": "203.0.113.9" })).toMatch(/^(127\.0\.0\.1|::1)$/)
  })

  it("refuses what a storefront may not send: raw card fields without SAQ D, unknown saved cards, saving a card as a guest", async () => {
    const cart = await s.createCart()
    const collection = await s.api.post("/store/payment-collections", { cart_id: cart.id }, { headers: s.storeHeaders })
    const create = (data: Record<string, unknown>) =>
      s.api.post(`/store/payment-collections/${collection.data.payment_collection.id}/payment-sessions`, { provider_id: "pp_pgs_pgs", data }, { headers: s.storeHeaders, validateStatus: () => true })

    const raw = await create({ payment_method: { type: "card", number: "4000000000001000", cvv: "123", expiration_month: 12, expiration_year: 2030 }, browser_info: BROWSER_INFO })
    expect(raw.status).toBe(400)
    expect(raw.data.message).toMatch(/SAQ D/)

    const saved = await create({ payment_method: { type: "saved_card", saved_card_id: "pm_someone_elses" }, browser_info: BROWSER_INFO })
    expect(saved.status).toBe(404)
    expect(saved.data.message).toMatch(/not a saved card of the logged-in customer/)

    const guestSave = await create({ payment_method: walletPayment(s.sandbox.testCard("frictionless_approved")), browser_info: BROWSER_INFO, save_card: true })
    expect(guestSave.status).toBe(400)
    expect(guestSave.data.message).toMatch(/save_card needs a logged-in customer/)

    const noBrowser = await create({ payment_method: walletPayment(s.sandbox.testCard("frictionless_approved")) })
    expect(noBrowser.status).toBe(400)
    expect(noBrowser.data.message).toMatch(/browser_info/)

    // A network token comes to a store's own server from a wallet or a token service, not from a browser: refused
    // unless the store turns that path on (behaviours/checkout-network-token.ts).
    const networkToken = { type: "network-token", token_number: "4111111111111111", expiration_month: 12, expiration_year: new Date().getFullYear() + 2 }
    const token = await create({ payment_method: { ...networkToken, cryptogram: "AgAAAAAAAIR8CQrXcIhbQAAAAAA=", eci: "05" }, browser_info: BROWSER_INFO })
    expect(token.status).toBe(400)
    expect(token.data.errors).toEqual([{ field: "data.payment_method.type", message: expect.stringMatching(/a network token is not taken from a storefront.*networkTokensFromStorefront/) }])

    const junk = await create({ payment_method: { type: "bitcoin" } })
    expect(junk.status).toBe(400)
    expect(junk.data.message).toMatch(/data\.payment_method/)
  })

  it("saves a logged-in shopper's card, lists it, pays with it next time and deletes it at the gateway", async () => {
    const { token, customer } = await s.registerCustomer()
    const first = await s.createCart({ customerToken: token })
    const session = await s.initiatePaymentSession(
      first.id,
      "pp_pgs_pgs",
      { payment_method: walletPayment(s.sandbox.testCard("frictionless_approved")), browser_info: BROWSER_INFO, save_card: true },
      token,
    )
    expect(sessionFields(session.data).save_card).toBe(true)
    // createAccountHolder made the gateway customer; the store keeps its id (its store answers leave it out).
    const stored = await s.container().resolve<any>("payment").retrievePaymentSession(session.id)
    expect(sessionFields(stored.data).gateway_customer_id).toEqual(expect.any(String))
    expect(sessionFields(session.data).gateway_customer_id).toBeUndefined()
    expect((await s.completeCart(first.id, token)).data.type).toBe("order")

    // The tokenization webhook (WEBHOOKS' handler) stores the card; the provider lists it for the customer.
    const payment = s.container().resolve<any>("payment")
    const methods = await waitFor(
      async () => {
        const list = await payment.listPaymentMethods({ provider_id: "pp_pgs_pgs", context: { customer: { id: customer.id } } })
        return list.length ? list : null
      },
      { what: "the saved card", timeoutMs: 15_000 },
    )
    expect(methods[0].data).toMatchObject({ brand: "VISA", last_4: "1000" })

    const second = await s.createCart({ customerToken: token })
    const savedSession = await s.initiatePaymentSession(
      second.id,
      "pp_pgs_pgs",
      { payment_method: { type: "saved_card", saved_card_id: methods[0].id }, browser_info: BROWSER_INFO },
      token,
    )
    expect(sessionFields(savedSession.data).payment_method).toMatchObject({ type: "saved_card", last_4: "1000" })
    expect((await s.completeCart(second.id, token)).data.type).toBe("order")
    const paid = (await ledger(s.sandbox)).filter((e) => e.reference === sessionFields(savedSession.data).reference && !e.replay)
    expect(paid).toHaveLength(1)
    expect(paid[0].status).toBe("APPROVED")

    await payment.deletePaymentMethods({ provider_id: "pp_pgs_pgs", id: methods[0].id })
    // The gateway now refuses the card: the next checkout with it fails with the shopper's message.
    const again = await s.createCart({ customerToken: token })
    await s.initiatePaymentSession(again.id, "pp_pgs_pgs", { payment_method: { type: "saved_card", saved_card_id: methods[0].id }, browser_info: BROWSER_INFO }, token)
    const refused = await s.completeCart(again.id, token)
    expect(refused.data.type).toBe("cart")
    expect(refused.data.error.type).toBe("payment_authorization_error")
    expect((await currentSession(s, again.id)).data.error.message).toMatch(/can no longer be used/)
  })

  it("does not let one customer pay with another customer's saved card", async () => {
    const owner = await s.registerCustomer()
    const cart = await s.createCart({ customerToken: owner.token })
    await s.initiatePaymentSession(cart.id, "pp_pgs_pgs", { payment_method: walletPayment(s.sandbox.testCard("frictionless_approved")), browser_info: BROWSER_INFO, save_card: true }, owner.token)
    await s.completeCart(cart.id, owner.token)
    const payment = s.container().resolve<any>("payment")
    const [card] = await waitFor(
      async () => {
        const list = await payment.listPaymentMethods({ provider_id: "pp_pgs_pgs", context: { customer: { id: owner.customer.id } } })
        return list.length ? list : null
      },
      { what: "the owner's saved card", timeoutMs: 15_000 },
    )
    const thief = await s.registerCustomer()
    const theirs = await s.createCart({ customerToken: thief.token })
    const res = await s
      .initiatePaymentSession(theirs.id, "pp_pgs_pgs", { payment_method: { type: "saved_card", saved_card_id: card.id }, browser_info: BROWSER_INFO }, thief.token)
      .catch((e: any) => e.response)
    expect(res.status).toBe(404)
    expect(res.data.message).toMatch(/not a saved card of the logged-in customer/)
  })
})

