/**
 * Conformance: the full 3-D Secure 2 simulator, metadata simulated_flow, driven over HTTP: the fingerprint action
 * and its token, the ACS method page, request-authentication, frictionless results and the challenge action.
 */
import { startHarness, type SandboxHarness } from "../support/sandbox"
import { actionToken, executionResponse } from "../../src/gateway/schemas"
import { authorizeCard, base64, decodeToken, record, requestAuthentication, submit, formById } from "./cards-support"

let h: SandboxHarness
beforeAll(async () => {
  h = await startHarness()
})
afterAll(() => h.close())

const startFlow = (simulated_flow: string, metadata: Record<string, unknown> = {}) =>
  authorizeCard(h, { payment_method: h.encryptedCard({ number: "4111111111111111" }), metadata: { simulated_flow, ...metadata } })

describe("fingerprint step", () => {
  it("authorize answers action THREE_DS_2_FINGERPRINT with token, payment_data and session_id = three_ds_server_trans_id", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_Y_CHALLENGE")
    expect(res.status).toBe(200)
    expect(executionResponse.safeParse(res.body).success).toBe(true)
    expect(res.body).toMatchObject({ result: null, redirect: null, form_submit: null })
    const action = res.body.action
    expect(action.type).toBe("THREE_DS_2_FINGERPRINT")
    expect(typeof action.payment_data).toBe("string")
    const token = decodeToken(action.token)
    expect(actionToken.safeParse(token).success).toBe(true)
    expect(Object.keys(token).sort()).toEqual(
      [
        "acs_trans_id",
        "acs_url",
        "challenge_window_size",
        "message_version",
        "three_ds_method_notification_url",
        "three_ds_method_url",
        "three_ds_server_trans_id",
      ].sort(),
    )
    expect(token).toMatchObject({
      three_ds_method_url: `${h.url}/acs/three-ds-method`,
      three_ds_method_notification_url: `${h.url}/three-ds/${action.transaction_id}/method-notification`,
      acs_url: `${h.url}/acs/challenge`,
      message_version: "2.2.0",
      challenge_window_size: "02",
    })
    expect(action.session_id).toBe(token.three_ds_server_trans_id)
    // Awaiting authentication the transaction stays CREATED (no webhook for CREATED).
    expect((await record(h, action.transaction_id)).status).toBe("CREATED")
  })

  it("metadata simulated_flow present but empty runs the default VERSIONING_FINGERPRINT_Y_CHALLENGE", async () => {
    const res = await startFlow("")
    expect(res.body.action.type).toBe("THREE_DS_2_FINGERPRINT")
    const next = await requestAuthentication(h, res.body.action)
    expect(next.body.action.type).toBe("THREE_DS_2_CHALLENGE")
  })

  it("the ACS method page accepts threeDSMethodData and reports to threeDSMethodNotificationURL", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_Y_CHALLENGE")
    const token = decodeToken(res.body.action.token)
    const threeDSMethodData = base64({
      threeDSServerTransID: token.three_ds_server_trans_id,
      threeDSMethodNotificationURL: token.three_ds_method_notification_url,
    })
    const method = await h.raw("POST", token.three_ds_method_url, { form: { threeDSMethodData } })
    expect(method.status).toBe(200)
    const notify = formById(method.text, "next")
    expect(notify.action).toBe(token.three_ds_method_notification_url)
    expect(JSON.parse(Buffer.from(notify.fields.threeDSMethodData, "base64url").toString())).toEqual({
      threeDSServerTransID: token.three_ds_server_trans_id,
    })
    const done = await submit(h, notify)
    expect(done.status).toBe(200)
    const flow = (await record(h, res.body.action.transaction_id)).flow.three_ds
    expect(flow).toMatchObject({ method_data_received: true, method_completed: true })
  })

  it("the ACS method page refuses threeDSMethodData that is not Base64 JSON (400)", async () => {
    const res = await h.raw("POST", `${h.url}/acs/three-ds-method`, { form: { threeDSMethodData: "%%%" } })
    expect(res.status).toBe(400)
  })

  it("request-authentication refuses a fingerprint_result that is not Base64 of Y or N (422)", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_Y_CHALLENGE")
    const bad = await h.api("POST", `/api/transactions/three-ds/${res.body.action.session_id}/request-authentication`, {
      fingerprint_result: "Y",
      payment_data: res.body.action.payment_data,
    })
    expect(bad.status).toBe(422)
    expect(bad.body.errors[0].property).toBe("fingerprint_result")
  })
})

describe("simulated_flow values", () => {
  it("VERSIONING_FINGERPRINT_Y_CHALLENGE: fingerprint, then request-authentication answers action THREE_DS_2_CHALLENGE", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_Y_CHALLENGE")
    const next = await requestAuthentication(h, res.body.action, "Y")
    expect(next.status).toBe(200)
    expect(next.body).toMatchObject({ result: null, redirect: null, form_submit: null })
    expect(next.body.action).toMatchObject({
      type: "THREE_DS_2_CHALLENGE",
      transaction_id: res.body.action.transaction_id,
      session_id: res.body.action.session_id,
      payment_data: res.body.action.payment_data,
    })
    expect(actionToken.safeParse(decodeToken(next.body.action.token)).success).toBe(true)
  })

  it("VERSIONING_FINGERPRINT_A_FRICTIONLESS: request-authentication answers the result, approved", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_A_FRICTIONLESS")
    expect(res.body.action.type).toBe("THREE_DS_2_FINGERPRINT")
    const next = await requestAuthentication(h, res.body.action)
    expect(next.body).toMatchObject({ action: null, redirect: null, form_submit: null })
    expect(next.body.result).toMatchObject({ status: "APPROVED", processing_code: "0000" })
    expect((await record(h, next.body.result.id)).authentication_status).toBe("ATTEMPTED")
  })

  it("VERSIONING_FINGERPRINT_N_FRICTIONLESS: request-authentication answers the result, declined", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_N_FRICTIONLESS")
    const next = await requestAuthentication(h, res.body.action)
    expect(next.body.result).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    expect((await record(h, next.body.result.id)).authentication_status).toBe("NOT_AUTHENTICATED")
  })

  it("VERSIONING_NOT_ENROLLED: no 3-D Secure; authorize answers the result and response_code decides", async () => {
    const res = await startFlow("VERSIONING_NOT_ENROLLED", { response_code: "TRX_STATUS_DECLINED" })
    expect(res.body.action).toBeNull()
    expect(res.body.result).toMatchObject({ status: "DECLINED", processing_code: "1000" })
    expect((await record(h, res.body.result.id)).authentication_status).toBe("NOT_ENROLLED")
  })

  it("VERSIONING_FINGERPRINT_TIMEOUT_CHALLENGE: the token has no three_ds_method_url; fingerprint N, then a challenge", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_TIMEOUT_CHALLENGE")
    const token = decodeToken(res.body.action.token)
    expect(token).not.toHaveProperty("three_ds_method_url")
    expect(actionToken.safeParse(token).success).toBe(true)
    const next = await requestAuthentication(h, res.body.action, "N")
    expect(next.body.action.type).toBe("THREE_DS_2_CHALLENGE")
    expect((await record(h, res.body.action.transaction_id)).flow.three_ds.fingerprint_result).toBe("N")
  })

  it("VERSIONING_FINGERPRINT_TIMEOUT_FRICTIONLESS: no three_ds_method_url; fingerprint N, then the result, approved", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_TIMEOUT_FRICTIONLESS")
    expect(decodeToken(res.body.action.token)).not.toHaveProperty("three_ds_method_url")
    const next = await requestAuthentication(h, res.body.action, "N")
    expect(next.body.result).toMatchObject({ status: "APPROVED" })
  })

  it.each([
    ["TRX_STATUS_DECLINED", "DECLINED", "1000"],
    ["TRX_STATUS_FAILED", "DECLINED", "1001"],
  ])("after authentication, response_code %s decides the authorization (%s, %s)", async (code, status, processing) => {
    const res = await startFlow("VERSIONING_FINGERPRINT_A_FRICTIONLESS", { response_code: code })
    const next = await requestAuthentication(h, res.body.action)
    expect(next.body.result).toMatchObject({ status, processing_code: processing })
  })

  it("the full simulator wins over the test card table: the insufficient-funds card follows response_code", async () => {
    const res = await authorizeCard(h, {
      payment_method: h.encryptedCard({ number: h.testCard("frictionless_insufficient_funds") }),
      metadata: { simulated_flow: "VERSIONING_FINGERPRINT_A_FRICTIONLESS" },
    })
    const next = await requestAuthentication(h, res.body.action)
    expect(next.body.result.status).toBe("APPROVED")
  })

  it("request-authentication asked again during the challenge answers the same challenge", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_Y_CHALLENGE")
    const first = await requestAuthentication(h, res.body.action)
    const again = await requestAuthentication(h, res.body.action)
    expect(again.body).toEqual(first.body)
  })

  it("authorize with the same reference answers the pending action again", async () => {
    const res = await startFlow("VERSIONING_FINGERPRINT_Y_CHALLENGE")
    const reference = (await record(h, res.body.action.transaction_id)).reference
    const again = await authorizeCard(h, {
      reference,
      payment_method: h.encryptedCard({ number: "4111111111111111" }),
      metadata: { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" },
    })
    expect(again.body.action).toEqual(res.body.action)
  })
})
