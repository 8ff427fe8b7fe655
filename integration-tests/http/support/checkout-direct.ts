/**
 * The browser's part of a Direct API card payment: the 3-D Secure method iframe, the ACS challenge and the
 * notification it posts, done with plain form posts exactly as the pages would submit them.
 */
import { parseForms, submit, walletOneToken } from "../../sandbox/cards-support"
import type { SandboxHarness } from "../../support/sandbox"
import { BROWSER_INFO, ledger, storePost } from "./checkout"
import { sessionFields } from "../../support/session-fields"
import type { StoreSuite } from "./store"

export { walletOneToken }

/** A wallet token for a card number; PAN_ONLY credentials get 3-D Secure, CRYPTOGRAM_3DS ones skip it. */
export const walletPayment = (pan: string, authMethod: "PAN_ONLY" | "CRYPTOGRAM_3DS" = "CRYPTOGRAM_3DS") => ({
  type: "wallet-one",
  token: walletOneToken({ pan, authMethod, ...(authMethod === "CRYPTOGRAM_3DS" ? { cryptogram: "AgAAAAAAAIR8CQrXcIhbQAAAAAA=" } : {}) }),
})

/** A card the simplified simulator does not know, so `simulated_flow` decides. */
export const PLAIN_VISA = "4111111111111111"

export async function directCart(s: StoreSuite, paymentMethod: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const cart = await s.createCart()
  const session = await s.initiatePaymentSession(cart.id, "pp_pgs_pgs", { payment_method: paymentMethod, browser_info: BROWSER_INFO, ...extra })
  return { cart, session }
}

/** The cart's current PGS payment session, as the storefront reads it. */
export async function currentSession(s: StoreSuite, cartId: string) {
  const res = await s.api.get(`/store/carts/${cartId}?fields=id,*payment_collection,*payment_collection.payment_sessions`, { headers: s.storeHeaders })
  return res.data.cart.payment_collection.payment_sessions.find((p: any) => p.provider_id === "pp_pgs_pgs")
}

/** The gateway transaction of the cart's PGS session, as the store keeps it (its store answers leave the id out). */
export async function storedTransactionId(s: StoreSuite, cartId: string): Promise<string | undefined> {
  const { id } = await currentSession(s, cartId)
  const stored = await s.container().resolve<any>("payment").retrievePaymentSession(id)
  return sessionFields(stored.data).transaction_id
}

/** The method iframe: post threeDSMethodData to the ACS, then follow its auto-submitted form to the notification URL. */
export async function runMethodStep(sandbox: SandboxHarness, next: { method_url: string; three_ds_method_data: string }) {
  const page = await sandbox.raw("POST", next.method_url, { form: { threeDSMethodData: next.three_ds_method_data } })
  if (page.status !== 200) throw new Error(`method page: ${page.status} ${page.text}`)
  const [form] = parseForms(page.text)
  const notified = await submit(sandbox, form)
  if (notified.status !== 200) throw new Error(`method notification: ${notified.status} ${notified.text}`)
}

/** The challenge iframe: post the creq, press Approve or Decline; returns the ACS's auto-submitted cres form. */
export async function runChallenge(sandbox: SandboxHarness, next: { acs_url: string; creq: string }, decision: "approve" | "decline") {
  const page = await sandbox.raw("POST", next.acs_url, { form: { creq: next.creq } })
  if (page.status !== 200) throw new Error(`challenge page: ${page.status} ${page.text}`)
  const button = parseForms(page.text).find((f) => f.id === decision)
  if (!button) throw new Error(`no ${decision} form on the ACS page`)
  const back = await submit(sandbox, button)
  const [cresForm] = parseForms(back.text)
  return cresForm // { action: notification URL, fields: { cres } }
}

export const requestAuthentication = (s: StoreSuite, sessionId: string, methodCompleted: boolean) =>
  storePost(s, `/store/pgs/payment-sessions/${sessionId}/three-ds/request-authentication`, { method_completed: methodCompleted })

export const authenticationCompleted = (s: StoreSuite, sessionId: string, transStatus: string) =>
  storePost(s, `/store/pgs/payment-sessions/${sessionId}/three-ds/authentication-completed`, { trans_status: transStatus })

/** Pays a wallet cart whose client-info call carries these extra headers; answers the customer_ip the gateway recorded. */
export async function customerIpRecordedFor(s: StoreSuite, headers: Record<string, string>): Promise<unknown> {
  const { cart, session } = await directCart(s, walletPayment(s.sandbox.testCard("frictionless_approved")))
  const told = await s.api.post(`/store/pgs/payment-sessions/${session.id}/client-info`, { browser_info: BROWSER_INFO }, { headers: { ...s.storeHeaders, ...headers }, validateStatus: () => true })
  if (told.status !== 200) throw new Error(`client-info: ${told.status} ${JSON.stringify(told.data)}`)
  const done = await s.completeCart(cart.id)
  if (done.data.type !== "order") throw new Error(`cart not completed: ${JSON.stringify(done.data)}`)
  const [tx] = (await ledger(s.sandbox)).filter((e) => e.reference === sessionFields(session.data).reference && !e.replay)
  return (await s.sandbox.control("GET", `/_sandbox/transactions/${tx.transaction_id}`)).body.record.customer_ip
}

/**
 * A Direct API cart stopped at the 3-D Secure challenge: completed once (requires more), fingerprint done; returns
 * the challenge step the storefront reads (acs_url, creq, three_ds_server_trans_id).
 */
export async function challengedCart(s: StoreSuite) {
  const { cart, session } = await directCart(s, walletPayment(PLAIN_VISA, "PAN_ONLY"), { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" })
  const first = await s.completeCart(cart.id)
  expect(first.status).toBe(200)
  expect(first.data.type).toBe("cart")
  expect(first.data.error.type).toBe("payment_requires_more_error")
  const fingerprint = await currentSession(s, cart.id)
  expect(fingerprint.status).toBe("requires_more")
  expect(fingerprint.data.next_action).toMatchObject({ type: "fingerprint", method_url: expect.any(String), three_ds_method_data: expect.any(String) })
  expect(JSON.stringify(fingerprint.data)).not.toContain("payment_data")
  await runMethodStep(s.sandbox, fingerprint.data.next_action)
  const challenge = await requestAuthentication(s, session.id, true)
  expect(challenge.status).toBe(200)
  expect(challenge.data.payment_session.status).toBe("requires_more")
  expect(challenge.data.payment_session.data.next_action).toMatchObject({ type: "challenge", acs_url: expect.any(String), creq: expect.any(String) })
  return { cart, session, next: challenge.data.payment_session.data.next_action }
}

/** What the ACS would post to our notification URL (form field cres) and the page we answer. */
export const postCres = (s: StoreSuite, sessionId: string, cres: string) =>
  s.api.post(`/hooks/pgs/three-ds/notification?session_id=${sessionId}`, new URLSearchParams({ cres }).toString(), {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    validateStatus: () => true,
  })

/** A cres as anyone can make one: Base64URL JSON naming the 3-D Secure transaction and a transStatus. */
export const madeUpCres = (threeDSServerTransID: string, transStatus = "Y") =>
  Buffer.from(JSON.stringify({ threeDSServerTransID, transStatus })).toString("base64url")
