/**
 * 3-D Secure is decided by the gateway, not by what a browser says: a storefront (or anyone holding the publishable
 * key) that reports "trans_status Y" or posts a made-up cres without the bank's page gets no authorized payment and
 * no order; the notification URL refuses a cres the session does not wait for; an honest challenge still pays. The
 * notification page tells only the storefront's exact origin.
 */
import { storeBody } from "../support/store"
import { authenticationCompleted, challengedCart, currentSession, madeUpCres, postCres, runChallenge, storedTransactionId } from "../support/checkout-direct"

const STORE_ORIGIN = "http://localhost:8000" // PGS_STORE_URL of the test store (support/store.ts)

export default storeBody("3-D Secure decided by the gateway (Direct API)", (s) => {
  const gatewayRecord = async (transactionId: string) => (await s.sandbox.control("GET", `/_sandbox/transactions/${transactionId}`)).body.record

  it("places no order when the storefront says the challenge passed (trans_status Y) without the bank's page, then pays once the shopper approves there", async () => {
    const { cart, session, next } = await challengedCart(s)
    const claimed = await authenticationCompleted(s, session.id, "Y")
    expect(claimed.status).toBe(200)
    expect(claimed.data.payment_session.status).toBe("requires_more")
    expect(claimed.data.payment_session.data.next_action).toMatchObject({ type: "challenge", three_ds_server_trans_id: next.three_ds_server_trans_id })
    const refused = await s.completeCart(cart.id)
    expect(refused.data.type).not.toBe("order")
    expect((await currentSession(s, cart.id)).status).toBe("requires_more")
    const transactionId = (await storedTransactionId(s, cart.id))!
    expect(await gatewayRecord(transactionId)).toMatchObject({ status: "CREATED" })
    expect((await gatewayRecord(transactionId)).authentication_status).not.toBe("AUTHENTICATED")

    // The honest path is still open: the shopper approves at the bank's page.
    await runChallenge(s.sandbox, next, "approve")
    const completed = await authenticationCompleted(s, session.id, "Y")
    expect(completed.data.payment_session).toMatchObject({ status: "authorized", data: { gateway_status: "APPROVED", next_action: null } })
    expect((await s.completeCart(cart.id)).data.type).toBe("order")
  })

  it("records the bank's decline when the storefront says Y after the shopper declined at the bank's page", async () => {
    const { cart, session, next } = await challengedCart(s)
    await runChallenge(s.sandbox, next, "decline")
    const claimed = await authenticationCompleted(s, session.id, "Y")
    expect(claimed.data.payment_session.status).toBe("error")
    expect(claimed.data.payment_session.data.gateway_status).toBe("DECLINED")
    expect((await s.completeCart(cart.id)).data.type).not.toBe("order")
  })

  it("refuses a made-up cres for the pending challenge (409, the bank has not confirmed) and places no order", async () => {
    const { cart, session, next } = await challengedCart(s)
    const page = await postCres(s, session.id, madeUpCres(next.three_ds_server_trans_id, "Y"))
    expect(page.status).toBe(409)
    expect(page.data).toContain("Your bank has not confirmed this payment yet.")
    expect(page.data).toContain('"ok":false')
    expect((await currentSession(s, cart.id)).status).toBe("requires_more")
    expect((await s.completeCart(cart.id)).data.type).not.toBe("order")
  })

  it("refuses a cres for another 3-D Secure authentication (409) without asking the gateway", async () => {
    const { cart, session } = await challengedCart(s)
    const page = await postCres(s, session.id, madeUpCres("8a0c5a8e-0000-4000-8000-000000000000", "Y"))
    expect(page.status).toBe(409)
    expect(page.data).toContain("The cres belongs to another 3-D Secure authentication")
    expect((await currentSession(s, cart.id)).status).toBe("requires_more")
  })

  it("refuses a cres for a session that waits for no challenge (409), and one that is not a cres (400)", async () => {
    const { cart, session, next } = await challengedCart(s)
    await runChallenge(s.sandbox, next, "approve")
    expect((await authenticationCompleted(s, session.id, "Y")).data.payment_session.status).toBe("authorized")
    const late = await postCres(s, session.id, madeUpCres(next.three_ds_server_trans_id, "N"))
    expect(late.status).toBe(409)
    expect(late.data).toContain("not waiting for a 3-D Secure challenge")
    expect((await currentSession(s, cart.id)).status).toBe("authorized")

    const other = await challengedCart(s)
    const garbage = await postCres(s, other.session.id, Buffer.from("not json").toString("base64url"))
    expect(garbage.status).toBe(400)
    expect(garbage.data).toContain("cres is not a 3-D Secure challenge result")
    const unknown = await postCres(s, "payses_00000000000000000000000000", madeUpCres(next.three_ds_server_trans_id))
    expect(unknown.status).toBe(404)
  })

  it("completes from the ACS's own cres and tells only the storefront's exact origin, never *", async () => {
    const { cart, session, next } = await challengedCart(s)
    const cresForm = await runChallenge(s.sandbox, next, "approve")
    const page = await postCres(s, session.id, cresForm.fields.cres)
    expect(page.status).toBe(200)
    expect(page.data).toContain("PGS_3DS_COMPLETE")
    expect(page.data).toContain(`,${JSON.stringify(STORE_ORIGIN)})`)
    expect(page.data).not.toContain('"*"')
    expect((await currentSession(s, cart.id)).status).toBe("authorized")
    expect((await s.completeCart(cart.id)).data.type).toBe("order")
  })
})
