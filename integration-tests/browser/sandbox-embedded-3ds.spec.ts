/** 3-D Secure and simulator steps of the embedded card frame: everything happens inside the iframe. */
import type { Locator } from "playwright-core"
import { createSession, describeBrowser, fillCard, openCheckout, screenshot, startBrowserEnv, startSubmit, submitResult, type BrowserEnv } from "./support"

describeBrowser("embedded fields: 3-D Secure inside the frame", () => {
  let env: BrowserEnv
  beforeAll(async () => {
    env = await startBrowserEnv({ fingerprintWaitMs: 100 })
  })
  afterAll(async () => {
    await env?.close()
  })

  // Keyboard activation: mouse clicks into a frame nested in a cross-origin frame fail with Debian's Chromium and
  // this playwright-core ("Object not disposable" while measuring), while keys reach the focused button fine.
  const press = (button: Locator) => button.press("Enter")

  const status = async (id: string) => (await env.h.control("GET", `/_sandbox/transactions/${id}`)).body.transaction.status

  it("completes the redirect_interactive card inside the iframe after Approve", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: env.h.testCard("redirect_interactive") })
    await startSubmit(page)
    const simulator = frame.frameLocator('iframe[name="pgs-redirect"]')
    await simulator.getByRole("button", { name: /Approve/ }).waitFor()
    expect(page.url()).toBe(env.shopUrl) // the shop page never navigated
    await screenshot(page, "embedded-3ds-redirect-simulator")
    await press(simulator.getByRole("button", { name: /Approve/ }))
    const { response, error } = await submitResult(page)
    expect(error).toBeNull()
    expect(response).toMatchObject({ approved: true, status: "APPROVED" })
    expect(await status(response.transaction_id)).toBe("APPROVED")
    await screenshot(page, "embedded-3ds-redirect-approved")
    await page.context().close()
  })

  it("declines the redirect_interactive card when the shopper clicks Decline", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: env.h.testCard("redirect_interactive", "MASTERCARD") })
    await startSubmit(page)
    await press(frame.frameLocator('iframe[name="pgs-redirect"]').getByRole("button", { name: /Decline/ }))
    const { response } = await submitResult(page)
    expect(response).toMatchObject({ approved: false, status: "DECLINED" })
    await screenshot(page, "embedded-3ds-redirect-declined")
    await page.context().close()
  })

  it.each([
    ["form_submit_authenticated", true, "APPROVED"],
    ["form_submit_declined", false, "DECLINED"],
  ])("posts the hidden form for %s", async (scenario, approved, finalStatus) => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: env.h.testCard(scenario) })
    await startSubmit(page)
    const { response } = await submitResult(page)
    expect(response).toMatchObject({ approved, status: finalStatus })
    expect(await status(response.transaction_id)).toBe(finalStatus)
    await screenshot(page, `embedded-3ds-${scenario}`)
    await page.context().close()
  })

  it("runs fingerprint and challenge (simulated_flow) in the frame and authorizes after Approve at the ACS", async () => {
    const session = await createSession(env.h)
    const attach = await env.h.control("POST", `/_sandbox/embedded/sessions/${session.id}/metadata`, { simulated_flow: "VERSIONING_FINGERPRINT_Y_CHALLENGE" })
    expect(attach.status).toBe(200)
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: "4111111111111111" })
    await startSubmit(page)
    const acs = frame.frameLocator('iframe[name="pgs-3ds-challenge"]')
    await acs.getByRole("button", { name: /Approve/ }).waitFor()
    await screenshot(page, "embedded-3ds-challenge")
    await press(acs.getByRole("button", { name: /Approve/ }))
    const { response, error } = await submitResult(page)
    expect(error).toBeNull()
    expect(response).toMatchObject({ approved: true, status: "APPROVED" })
    const tx = await env.h.control("GET", `/_sandbox/transactions/${response.transaction_id}`)
    expect(tx.body.record.authentication_status).toBe("AUTHENTICATED")
    expect(tx.body.record.flow.three_ds.method_completed).toBe(true)
    await page.context().close()
  })

  it("finishes a frictionless full 3-D Secure flow after the fingerprint", async () => {
    const session = await createSession(env.h)
    await env.h.control("POST", `/_sandbox/embedded/sessions/${session.id}/metadata`, { simulated_flow: "VERSIONING_FINGERPRINT_N_FRICTIONLESS" })
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: "4111111111111111" })
    await startSubmit(page)
    const { response } = await submitResult(page)
    expect(response).toMatchObject({ approved: false, status: "DECLINED" })
    await screenshot(page, "embedded-3ds-frictionless-n")
    await page.context().close()
  })

  it("rejects unknown simulator metadata for a session", async () => {
    const session = await createSession(env.h)
    const res = await env.h.control("POST", `/_sandbox/embedded/sessions/${session.id}/metadata`, { simulated_flow: "NOPE" })
    expect(res.status).toBe(422)
    expect(res.body.errors[0].property).toBe("metadata.simulated_flow")
  })
})
