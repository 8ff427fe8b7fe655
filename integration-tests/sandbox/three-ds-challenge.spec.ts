/**
 * Conformance: the 3-D Secure challenge step, driven through the sandbox ACS with plain HTTP: full-page
 * (the gateway finalizes and redirects to return_url), iframe (CHALLENGE_RESPONSE message, then
 * authentication-completed) and the DIRECT_API notification URL override (cres posted to the merchant).
 */
import { startCardTransaction } from "../../sandbox/cards/start"
import { BROWSER_INFO, startHarness, uniqueReference, type SandboxHarness } from "../support/sandbox"
import {
  authenticationCompleted,
  authorizeCard,
  base64,
  creqFor,
  decideAtAcs,
  decodeBase64Json,
  ERROR_URL,
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

describe("challenge at the ACS, gateway notification URL", () => {
  it("the ACS posts cres (Base64URL JSON with threeDSServerTransID and transStatus) to {base_url}/three-ds/{id}/challenge-notification-url", async () => {
    const action = await challengeAction(h, )
    const toNotification = await decideAtAcs(h, action, "approve")
    expect(toNotification.method).toBe("POST")
    expect(toNotification.action).toBe(`${h.url}/three-ds/${action.transaction_id}/challenge-notification-url`)
    expect(toNotification.fields.cres).toMatch(/^[A-Za-z0-9_-]+$/)
    expect(decodeBase64Json(toNotification.fields.cres)).toMatchObject({ threeDSServerTransID: action.session_id, transStatus: "Y" })
  })

  it("full page: the service finalizes and redirects the browser to return_url; no merchant call needed", async () => {
    const action = await challengeAction(h, )
    const notification = await submit(h, await decideAtAcs(h, action, "approve"))
    expect(notification.status).toBe(200)
    const done = await submit(h, formById(notification.text, "finalize"))
    expect(done.status).toBe(303)
    expect(done.headers.location).toBe(RETURN_URL)
    expect(await record(h, action.transaction_id)).toMatchObject({ status: "APPROVED", authentication_status: "AUTHENTICATED" })
  })

  it("full page, declined at the ACS: DECLINED and the browser goes to error_url", async () => {
    const action = await challengeAction(h, { error_url: ERROR_URL })
    const notification = await submit(h, await decideAtAcs(h, action, "decline"))
    const done = await submit(h, formById(notification.text, "finalize"))
    expect(done.headers.location).toBe(ERROR_URL)
    expect(await record(h, action.transaction_id)).toMatchObject({ status: "DECLINED", processing_code: "1000" })
  })

  it("iframe: the notification page posts {type: CHALLENGE_RESPONSE, trans_status} to the parent window", async () => {
    const action = await challengeAction(h, )
    const notification = await submit(h, await decideAtAcs(h, action, "approve"))
    expect(notification.text).toContain('window.parent.postMessage({type:"CHALLENGE_RESPONSE",trans_status:s},"*")')
    expect(notification.text).toContain('var s="Y"')
    // Nothing is finalized until the merchant calls authentication-completed (or the full page posts back).
    expect((await record(h, action.transaction_id)).status).toBe("CREATED")
  })

  it("iframe: authentication-completed with the ACS's trans_status answers the result", async () => {
    const action = await challengeAction(h, )
    await submit(h, await decideAtAcs(h, action, "approve"))
    const res = await authenticationCompleted(h, action, "Y")
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ action: null, redirect: null, form_submit: null })
    expect(res.body.result).toMatchObject({ id: action.transaction_id, status: "APPROVED", processing_code: "0000" })
  })

  it("authentication-completed answers the ACS's decision, not the merchant's: a Y after Decline at the ACS declines", async () => {
    const action = await challengeAction(h)
    await decideAtAcs(h, action, "decline")
    const res = await authenticationCompleted(h, action, "Y")
    expect(res.status).toBe(200)
    expect(res.body.result).toMatchObject({ id: action.transaction_id, status: "DECLINED", processing_code: "1000", approved: false })
    expect((await record(h, action.transaction_id)).authentication_status).toBe("NOT_AUTHENTICATED")
  })

  it("an N after Approve at the ACS still authorizes: the ACS decided", async () => {
    const action = await challengeAction(h)
    await decideAtAcs(h, action, "approve")
    const res = await authenticationCompleted(h, action, "N")
    expect(res.body.result).toMatchObject({ status: "APPROVED" })
    expect((await record(h, action.transaction_id)).authentication_status).toBe("AUTHENTICATED")
  })

  it("refuses (409) a made-up cres at the notification URL while the ACS has no decision, and decides nothing", async () => {
    const action = await challengeAction(h)
    const cres = Buffer.from(JSON.stringify({ threeDSServerTransID: action.session_id, transStatus: "Y" })).toString("base64url")
    const url = `${h.url}/three-ds/${action.transaction_id}/challenge-notification-url`
    const framed = await h.raw("POST", url, { form: { cres } })
    expect(framed.status).toBe(409)
    expect(framed.text).not.toContain("CHALLENGE_RESPONSE")
    const fullPage = await h.raw("POST", url, { form: { cres, finalize: "full-page" } })
    expect(fullPage.status).toBe(409)
    expect(await record(h, action.transaction_id)).toMatchObject({ status: "CREATED" })
  })

  it("a cres that says Y after Decline at the ACS: the page hands the parent the ACS's N and the full page declines", async () => {
    const action = await challengeAction(h, { error_url: ERROR_URL })
    const toNotification = await decideAtAcs(h, action, "decline")
    const lie = Buffer.from(JSON.stringify({ ...decodeBase64Json(toNotification.fields.cres), transStatus: "Y" })).toString("base64url")
    const framed = await h.raw("POST", toNotification.action, { form: { cres: lie } })
    expect(framed.text).toContain('var s="N"')
    const done = await submit(h, formById(framed.text, "finalize"))
    expect(done.headers.location).toBe(ERROR_URL)
    expect(await record(h, action.transaction_id)).toMatchObject({ status: "DECLINED", authentication_status: "NOT_AUTHENTICATED" })
  })

  it("the embedded-fields and hosted-payment-page notification paths are served too", async () => {
    for (const path of ["embedded-fields/challenge-notification-url", "hosted-payment-page/challenge-notification-url"]) {
      const action = await challengeAction(h, )
      const cres = (await decideAtAcs(h, action, "approve")).fields.cres
      const page = await h.raw("POST", `${h.url}/three-ds/${action.transaction_id}/${path}`, { form: { cres } })
      expect(page.status).toBe(200)
      expect(page.text).toContain("CHALLENGE_RESPONSE")
    }
  })
})

describe("canceling the challenge", () => {
  const CANCEL_URL = "https://shop.example/cancel"

  it("Cancel at the ACS, full page: CANCELED (customer canceled the challenge) and the browser goes to cancel_url", async () => {
    const action = await challengeAction(h, { cancel_url: CANCEL_URL })
    const toNotification = await decideAtAcs(h, action, "cancel")
    expect(decodeBase64Json(toNotification.fields.cres)).toMatchObject({ transStatus: "N", challengeCancel: "01" })
    const notification = await submit(h, toNotification)
    const done = await submit(h, formById(notification.text, "finalize"))
    expect(done.headers.location).toBe(CANCEL_URL)
    expect(await record(h, action.transaction_id)).toMatchObject({ status: "CANCELED", processing_code: "1003" })
  })

  it("Cancel at the ACS, iframe: authentication-completed with N answers CANCELED", async () => {
    const action = await challengeAction(h, )
    await decideAtAcs(h, action, "cancel")
    const res = await authenticationCompleted(h, action, "N")
    expect(res.body.result).toMatchObject({ status: "CANCELED", approved: false })
  })
})

describe("notification URL override (options.three_ds.notification_url, DIRECT_API)", () => {
  const OVERRIDE = "https://merchant.example/3ds/notify?order=42"

  it("the ACS posts application/x-www-form-urlencoded cres to the merchant URL; the merchant then calls authentication-completed", async () => {
    const action = await challengeAction(h, { options: { three_ds: { notification_url: OVERRIDE } } })
    const toMerchant = await decideAtAcs(h, action, "approve")
    expect(toMerchant.action).toBe(OVERRIDE)
    expect(Object.keys(toMerchant.fields)).toEqual(["cres"])
    const cres = decodeBase64Json(toMerchant.fields.cres)
    expect(cres).toMatchObject({ threeDSServerTransID: action.session_id, transStatus: "Y" })
    const res = await h.api("POST", "/api/transactions/three-ds/authentication-completed", {
      payment_data: action.payment_data,
      session_id: cres.threeDSServerTransID,
      trans_status: cres.transStatus,
    })
    expect(res.body.result).toMatchObject({ status: "APPROVED" })
  })

  it.each([
    ["EMBEDDED_FIELDS", "embedded-fields/challenge-notification-url"],
    ["HOSTED_PAYMENT_PAGE", "hosted-payment-page/challenge-notification-url"],
  ] as const)("is ignored for %s: the ACS posts to the gateway's %s", async (integration, path) => {
    // Embedded fields and the hosted page start card transactions through startCardTransaction; call it directly.
    const ctx = h.sandbox.context
    const merchant = [...ctx.merchants.values()][0]
    const response = startCardTransaction(
      ctx,
      {
        merchant,
        terminal: merchant.terminals[0],
        reference: uniqueReference("int"),
        description: "Card order",
        amount: 500,
        currency: "EUR",
        transaction_type: "PURCHASE",
        credential: { kind: "card", card: { number: "4111111111111111", cvv: "123", expiration_month: 12, expiration_year: 2040 } },
        integration_type: integration,
        metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" },
        customer: null,
        browser_info: BROWSER_INFO,
        customer_ip: "127.0.0.1",
        originator_url: "https://shop.example",
        return_url: RETURN_URL,
        notification_url_override: OVERRIDE,
      },
      "test",
    )
    const challenge = await requestAuthentication(h, response.action!)
    const toNotification = await decideAtAcs(h, challenge.body.action, "approve")
    expect(toNotification.action).toBe(`${h.url}/three-ds/${response.action!.transaction_id}/${path}`)
  })
})

describe("authentication-completed", () => {
  it.each(["Y", "A", "N", "R", "U", "C"])(
    "trans_status %s with no decision at the ACS leaves the transaction waiting: the same challenge again, nothing authorized",
    async (transStatus) => {
      const action = await challengeAction(h)
      const res = await authenticationCompleted(h, action, transStatus)
      expect(res.status).toBe(200)
      expect(res.body).toMatchObject({ result: null, redirect: null, form_submit: null })
      expect(res.body.action).toEqual(action)
      const tx = await record(h, action.transaction_id)
      expect(tx.status).toBe("CREATED")
      expect(tx.authentication_status).not.toBe("AUTHENTICATED")
    },
  )

  it("after a Y the ACS never saw, the cardholder still completes the challenge and the ACS decides", async () => {
    const action = await challengeAction(h)
    const early = await authenticationCompleted(h, action, "Y")
    await decideAtAcs(h, early.body.action, "decline")
    const res = await authenticationCompleted(h, early.body.action, "Y")
    expect(res.body.result).toMatchObject({ status: "DECLINED" })
  })

  it("called again after the result it answers the same result (a final status never changes)", async () => {
    const action = await challengeAction(h)
    await decideAtAcs(h, action, "approve")
    const first = await authenticationCompleted(h, action, "Y")
    const again = await authenticationCompleted(h, action, "N")
    expect(again.status).toBe(200)
    expect(again.body.result).toMatchObject({ id: first.body.result.id, status: "APPROVED" })
  })

  it("before the challenge (still at the fingerprint step) it is a 422 on session_id", async () => {
    const res = await authorizeCard(h, { metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" } })
    const early = await authenticationCompleted(h, res.body.action, "Y")
    expect(early.status).toBe(422)
    expect(early.body.errors[0].property).toBe("session_id")
  })

  it("an unknown trans_status value is a 422 on trans_status", async () => {
    const action = await challengeAction(h, )
    const res = await authenticationCompleted(h, action, "X")
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("trans_status")
  })
})

describe("the ACS challenge page", () => {
  it("shows Approve, Decline and Cancel for a valid creq", async () => {
    const action = await challengeAction(h, )
    const { url, creq } = creqFor(action)
    const page = await h.raw("POST", url, { form: { creq } })
    expect(page.status).toBe(200)
    expect(formById(page.text, "approve").fields).toEqual({ trans_status: "Y" })
    expect(formById(page.text, "decline").fields).toEqual({ trans_status: "N" })
    expect(formById(page.text, "cancel").fields).toEqual({ trans_status: "N", cancel: "01" })
  })

  it("refuses a creq whose messageType is not CReq (400)", async () => {
    const action = await challengeAction(h, )
    const { url, creq } = creqFor(action)
    const wrong = base64({ ...JSON.parse(Buffer.from(creq, "base64").toString()), messageType: "AReq" })
    const page = await h.raw("POST", url, { form: { creq: wrong } })
    expect(page.status).toBe(400)
  })

  it("refuses a creq with another acsTransID (400)", async () => {
    const action = await challengeAction(h, )
    const { url, creq } = creqFor(action)
    const wrong = base64({ ...JSON.parse(Buffer.from(creq, "base64").toString()), acsTransID: "someone-else" })
    expect((await h.raw("POST", url, { form: { creq: wrong } })).status).toBe(400)
  })

  it("answers 404 for an unknown threeDSServerTransID", async () => {
    const creq = base64({ threeDSServerTransID: "nope", acsTransID: "x", messageVersion: "2.2.0", messageType: "CReq", challengeWindowSize: "02" })
    expect((await h.raw("POST", `${h.url}/acs/challenge`, { form: { creq } })).status).toBe(404)
  })

  it("answers 409 while the transaction is still at the fingerprint step", async () => {
    const res = await authorizeCard(h, { metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" } })
    const { url, creq } = creqFor(res.body.action)
    expect((await h.raw("POST", url, { form: { creq } })).status).toBe(409)
  })
})
