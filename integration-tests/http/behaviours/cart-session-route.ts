/**
 * The cart session route and the completion with the card's transaction, where they meet other writers and other
 * callers: Medusa's running completion (its cart lock), a shopper signed in on a cart made before login, a failing
 * card-testing record, a storefront re-rendering from a refusal, a widget telling a refusal from a busy cart.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { payInFrame, storePost } from "../support/checkout"
import { storeBody } from "../support/store"

// The widget's sources are built for the browser (their own tsconfig, whose extension-less imports this config's
// node16 resolution refuses): read at run time, typed here by the part this file uses.
type WidgetApi = { fetch: unknown; complete: unknown; signedIn: unknown }
const { connect } = require("../../../storefront-widget/src/core/api") as {
  connect(c: { baseUrl: string; publishableKey: string; authToken?: () => string | null | undefined }): WidgetApi
}
const { listMethods } = require("../../../storefront-widget/src/core/methods") as {
  listMethods(api: WidgetApi, cartId: string, o: { providers?: string[] }): Promise<[methods: unknown[], savedCards: unknown[] | null]>
}

export default storeBody("store: the cart session route beside Medusa's completion, and the completion's refusals", (s) => {
  const startSession = (cartId: string, body: unknown) => storePost(s, `/store/pgs/carts/${cartId}/payment-sessions`, body)
  const complete = (cartId: string, body?: unknown) => storePost(s, `/store/carts/${cartId}/complete`, body)
  const sessionIdsOf = async (cartId: string) =>
    ((await s.api.get(`/store/carts/${cartId}?fields=id,*payment_collection.payment_sessions`, { headers: s.storeHeaders })).data.cart.payment_collection
      .payment_sessions as { id: string }[]).map((p) => p.id)

  it("makes no session while Medusa's completion holds the cart, and refuses it (409) once that completion completed the cart", async () => {
    const cart = await s.createCart()
    const first = (await startSession(cart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    let answer: Promise<{ status: number; data: any }> | undefined
    // completeCartWorkflow's lock (the cart id); the completion that holds it completes the cart.
    await s.container().resolve(Modules.LOCKING).execute(cart.id, async () => {
      answer = startSession(cart.id, { provider_id: "pp_pgs_pgs" })
      // A route not waiting for the lock makes its session meanwhile: given up to 5 s to show up.
      for (const until = Date.now() + 5_000; Date.now() < until; ) {
        const rows = await knex("payment_session").where({ payment_collection_id: first.payment_collection_id }).whereNot({ id: first.id }).count("id as n")
        if (Number(rows[0]!.n) > 0) break
      }
      await knex("cart").where({ id: cart.id }).update({ completed_at: new Date() })
    })
    const res = await answer!
    expect(res.status).toBe(409)
    expect(res.data.message).toBe(`Cart ${cart.id} is already completed`)
    expect(await sessionIdsOf(cart.id)).toEqual([first.id]) // the completion's session is left as it is
  })

  it("still makes the collection and session when the card-testing guard cannot record the client (a warning, never a 5xx)", async () => {
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    await knex.raw("alter table pgs_card_testing_client add constraint refuse_all check (false) not valid")
    try {
      const cart = await s.createCart()
      const res = await startSession(cart.id, { provider_id: "pp_pgs_pgs" })
      expect(res.status).toBe(200)
      expect(res.data.payment_session).toMatchObject({ provider_id: "pp_pgs_pgs", status: "pending" })
    } finally {
      await knex.raw("alter table pgs_card_testing_client drop constraint if exists refuse_all")
    }
  })

  it("offers a signed-in shopper's saved cards only on their own cart: not on one made before they signed in", async () => {
    const { token } = await s.registerCustomer()
    const theirs = await s.createCart({ customerToken: token })
    const guests = await s.createCart()
    const methodsOf = (cartId: string, bearer?: string) =>
      s.api.get(`/store/pgs/payment-methods?cart_id=${cartId}`, { headers: { ...s.storeHeaders, ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) } })
    expect((await methodsOf(theirs.id, token)).data.saved_cards).toEqual([]) // theirs: their cards (none saved yet)
    expect((await methodsOf(guests.id, token)).data.saved_cards).toBeNull()
    expect((await methodsOf(theirs.id)).data.saved_cards).toBeNull()
    // The widget's list: the customer's cards on their cart; none to offer (nor a card to save) on the other.
    const api = connect({ baseUrl: s.medusaUrl, publishableKey: s.storeHeaders["x-publishable-api-key"]!, authToken: () => token })
    // (No method chosen: the card's would ask for the gateway's script, which needs a browser.)
    expect((await listMethods(api, theirs.id, { providers: [] }))[1]).toEqual([])
    expect((await listMethods(api, guests.id, { providers: [] }))[1]).toBeNull()
  })

  it("names the completion's refusal of a transaction (409 pgs_transaction_conflict), so a storefront does not repeat it as a busy cart", async () => {
    const paidCart = await s.createCart()
    const paidSession = (await startSession(paidCart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const { transactionId } = await payInFrame(s.sandbox, paidSession, s.sandbox.testCard("frictionless_approved"))
    const cart = await s.createCart()
    const session = (await startSession(cart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const stolen = await complete(cart.id, { pgs_transaction: { payment_session_id: session.id, transaction_id: transactionId } })
    expect(stolen.status).toBe(409)
    expect(stolen.data).toMatchObject({ type: "conflict", code: "pgs_transaction_conflict", message: expect.stringMatching(/does not belong to this payment session/) })
  })

  it("answers a declined card in the completion with the cart as Medusa's refusal carries it (its default store fields)", async () => {
    const cart = await s.createCart()
    const session = (await startSession(cart.id, { provider_id: "pp_pgs_pgs" })).data.payment_session
    const { transactionId } = await payInFrame(s.sandbox, session, s.sandbox.testCard("frictionless_insufficient_funds"))
    const done = await complete(cart.id, { pgs_transaction: { payment_session_id: session.id, transaction_id: transactionId } })
    expect(done.data).toMatchObject({ type: "cart", error: { type: "payment_authorization_error" } })
    // GET /store/carts/:id answers Medusa's default store cart fields too (an empty relation there as [], which the
    // refusal's read, Medusa's refetchCart, leaves out).
    const read = (await s.api.get(`/store/carts/${cart.id}`, { headers: s.storeHeaders })).data.cart
    const missing = Object.keys(read).filter((k) => !(k in done.data.cart) && !(Array.isArray(read[k]) && read[k].length === 0))
    expect(missing).toEqual([])
    expect(done.data.cart).toMatchObject({ email: cart.email, region_id: cart.region_id, total: read.total, items: [expect.objectContaining({ variant_id: s.seed.variantId })] })
    expect(done.data.cart.billing_address).toMatchObject({ city: "Berlin" })
    expect(done.data.cart.payment_collection.payment_sessions[0]).not.toHaveProperty("context") // the customer record stays out
  })
})
