/**
 * Conformance: the 3-D Secure rules around the flow: the notification URL override limits (400 before any
 * transaction is created), payment_data passed back unchanged, and "an extra round can occur at most once per
 * authentication attempt; a further request declines the transaction".
 */
import { startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"
import {
  authenticationCompleted,
  authorizeCard,
  decideAtAcs,
  decodeToken,
  formById,
  record,
  requestAuthentication,
  RETURN_URL,
  submit,
  challengeAction,
} from "./cards-support"

let h: SandboxHarness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

describe("notification URL override limits", () => {
  const longUrl = (length: number) => `https://merchant.example/${"a".repeat(length - "https://merchant.example/".length)}`

  it.each([
    ["http instead of https", "http://merchant.example/3ds"],
    ["no host", "https://"],
    ["not a URL", "notification"],
    ["longer than 256 characters", longUrl(257)],
  ])("%s: 400 before any transaction is created", async (_name, url) => {
    const reference = uniqueReference("override")
    const res = await authorizeCard(h, { reference, options: { three_ds: { notification_url: url } } })
    expect(res.status).toBe(400)
    const ledger = await h.control("GET", "/_sandbox/ledger")
    expect(ledger.body.entries.filter((e: { reference: string }) => e.reference === reference)).toEqual([])
  })

  it("an https URL of exactly 256 characters is accepted", async () => {
    const res = await authorizeCard(h, { options: { three_ds: { notification_url: longUrl(256) } } })
    expect(res.status).toBe(200)
  })
})

describe("payment_data must be passed back unchanged", () => {
  // Change the first character: it always changes the decoded bytes (a last character may only hold padding bits).
  const tamper = (pd: string) => `${pd[0] === "e" ? "f" : "e"}${pd.slice(1)}`

  it("request-authentication with altered payment_data is a 422 on payment_data", async () => {
    const res = await authorizeCard(h, { metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" } })
    const bad = await requestAuthentication(h, res.body.action, "Y", tamper(res.body.action.payment_data))
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].property).toBe("payment_data")
    expect((await record(h, res.body.action.transaction_id)).flow.three_ds.stage).toBe("fingerprint")
  })

  it("authentication-completed with altered payment_data is a 422 on payment_data", async () => {
    const action = await challengeAction(h)
    const bad = await authenticationCompleted(h, { ...action, payment_data: tamper(action.payment_data) }, "Y")
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].property).toBe("payment_data")
  })

  it("payment_data of another 3-D Secure transaction is a 422 on the id that does not match", async () => {
    const one = await challengeAction(h)
    const other = await challengeAction(h)
    const wrongSession = await authenticationCompleted(h, { session_id: other.session_id, payment_data: one.payment_data }, "Y")
    expect(wrongSession.status).toBe(422)
    expect(wrongSession.body.errors[0].property).toBe("session_id")
    const wrongPath = await h.api("POST", `/api/transactions/three-ds/${decodeToken(other.token).three_ds_server_trans_id}/request-authentication`, {
      fingerprint_result: Buffer.from("Y").toString("base64"),
      payment_data: one.payment_data,
    })
    expect(wrongPath.status).toBe(422)
    expect(wrongPath.body.errors[0].property).toBe("three_ds_server_trans_id")
  })

  it("the 3-D Secure calls follow the API request hygiene: a wrong Content-Type is Forbidden with an empty body", async () => {
    const action = await challengeAction(h)
    const res = await h.raw("POST", `${h.url}/api/transactions/three-ds/authentication-completed`, {
      body: JSON.stringify({ payment_data: action.payment_data, session_id: action.session_id, trans_status: "Y" }),
      headers: { authorization: `Bearer ${await h.bearer()}`, "content-type": "text/plain" },
    })
    expect(res.status).toBe(403)
    expect(res.text).toBe("")
  })

  it("both 3-D Secure calls need the bearer token (401)", async () => {
    const action = await challengeAction(h)
    const res = await h.raw("POST", `${h.url}/api/transactions/three-ds/authentication-completed`, {
      json: { payment_data: action.payment_data, session_id: action.session_id, trans_status: "Y" },
    })
    expect(res.status).toBe(401)
    expect(res.body).toEqual({ error: "Unauthorized" })
  })
})

describe("additional authentication round", () => {
  it('simulate_extra_rounds "1": the first completion answers a new THREE_DS_2_CHALLENGE; the second answers the result', async () => {
    const action = await challengeAction(h, {}, { simulate_extra_rounds: "1" })
    await decideAtAcs(h, action, "approve")
    const first = await authenticationCompleted(h, action, "Y")
    expect(first.body).toMatchObject({ result: null, redirect: null, form_submit: null })
    expect(first.body.action).toMatchObject({ type: "THREE_DS_2_CHALLENGE", transaction_id: action.transaction_id, session_id: action.session_id })
    // The new round needs a new decision at the ACS: the first round's Approve does not carry over.
    expect((await authenticationCompleted(h, first.body.action, "Y")).body.result).toBeNull()
    await decideAtAcs(h, first.body.action, "approve")
    const second = await authenticationCompleted(h, first.body.action, "Y")
    expect(second.body.result).toMatchObject({ status: "APPROVED" })
  })

  it('simulate_extra_rounds "2": the issuer asks a second time after one extra round, so the transaction is declined automatically', async () => {
    const action = await challengeAction(h, {}, { simulate_extra_rounds: "2" })
    await decideAtAcs(h, action, "approve")
    const first = await authenticationCompleted(h, action, "Y")
    expect(first.body.action.type).toBe("THREE_DS_2_CHALLENGE")
    await decideAtAcs(h, first.body.action, "approve")
    const second = await authenticationCompleted(h, first.body.action, "Y")
    expect(second.body.action).toBeNull()
    expect(second.body.result).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    expect(second.body.result.response_message).toContain("second time")
  })

  it("a trans_status C from the merchant asks for no extra round: the issuer decides that, and the ACS's Approve authorizes", async () => {
    const action = await challengeAction(h)
    await decideAtAcs(h, action, "approve")
    const res = await authenticationCompleted(h, action, "C")
    expect(res.body.result).toMatchObject({ status: "APPROVED" })
  })

  it("full page: an extra round sends the browser back to the ACS with a new creq, then to return_url", async () => {
    const action = await challengeAction(h, {}, { simulate_extra_rounds: "1" })
    const notification = await submit(h, await decideAtAcs(h, action, "approve"))
    const again = await submit(h, formById(notification.text, "finalize"))
    expect(again.status).toBe(200)
    const toAcs = formById(again.text, "next")
    expect(toAcs.action).toBe(decodeToken(action.token).acs_url)
    const challengePage = await submit(h, toAcs)
    expect(challengePage.text).toContain("Additional authentication requested")
    const cres = await submit(h, formById(challengePage.text, "approve"))
    const notification2 = await submit(h, formById(cres.text, "next"))
    const done = await submit(h, formById(notification2.text, "finalize"))
    expect(done.status).toBe(303)
    expect(done.headers.location).toBe(RETURN_URL)
    expect((await record(h, action.transaction_id)).status).toBe("APPROVED")
  })

  it("simulate_extra_rounds outside 0-2 is a 422 on metadata.simulate_extra_rounds", async () => {
    const res = await authorizeCard(h, { metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE", simulate_extra_rounds: "3" } })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("metadata.simulate_extra_rounds")
  })
})
