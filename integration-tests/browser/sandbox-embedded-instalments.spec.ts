/** Instalments in the embedded card form (terminal SBX-INSTAL-01) and the saved-card component. */
import { BROWSER_INFO, uniqueReference, waitFor } from "../support/sandbox"
import { startWebhookReceiver } from "../support/webhook-receiver"
import { createSession, describeBrowser, fillCard, openCheckout, screenshot, startBrowserEnv, startSubmit, submitResult, type BrowserEnv } from "./support"

describeBrowser("embedded fields: instalments and saved cards", () => {
  let env: BrowserEnv
  let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>
  beforeAll(async () => {
    env = await startBrowserEnv()
    hooks = await startWebhookReceiver()
    await env.h.control("POST", "/_sandbox/webhooks", { url: hooks.url })
  })
  afterAll(async () => {
    await env?.close()
    await hooks?.close()
  })

  /** The transaction webhook payload for `id`, once its final event was delivered. */
  const finalWebhook = (id: string) =>
    waitFor(
      async () => {
        const res = await env.h.control("GET", `/_sandbox/webhooks/deliveries?subject_id=${id}`)
        const delivered = res.body.deliveries.filter((d: { state: string }) => d.state === "delivered")
        const payloads = delivered.map((d: { body: string }) => JSON.parse(d.body).payload)
        return payloads.find((p: { status: string }) => p.status === "APPROVED")
      },
      { what: `approved webhook for ${id}` },
    )

  it("enables the selector for an eligible card, clears it for an ineligible one, and reports the choice in the webhook", async () => {
    const session = await createSession(env.h, { terminal_id: "SBX-INSTAL-01" })
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    const select = frame.locator("#in-instalments")
    await select.waitFor()
    expect(await select.isDisabled()).toBe(true)
    await frame.locator("#in-cardNumber").fill("4000 0000")
    expect(await select.isDisabled()).toBe(true)
    await frame.locator("#in-cardNumber").fill(env.h.testCard("frictionless_approved"))
    await waitFor(async () => !(await select.isDisabled()), { what: "selector enabled" })
    expect(await select.inputValue()).toBe("") // "no instalments" is the default
    expect(await select.locator("option").allTextContents()).toEqual(["No instalments", "1 instalment", ...[2, 3, 4, 5, 6].map((n) => `${n} instalments`)])
    await select.selectOption("4")
    // An American Express number (Luhn-valid, not an eligible network) clears and disables the choice.
    await frame.locator("#in-cardNumber").fill("378282246310005")
    await waitFor(async () => (await select.isDisabled()) && (await select.inputValue()) === "", { what: "selector cleared" })
    await fillCard(frame, { number: env.h.testCard("frictionless_approved", "MASTERCARD") })
    await waitFor(async () => !(await select.isDisabled()), { what: "selector enabled again" })
    await select.selectOption("3")
    await page.waitForFunction(() => (window as any).__pgs.component.getDataWithValidation().data.numberOfInstalments === 3)
    await screenshot(page, "embedded-instalments-selected")
    await startSubmit(page)
    const { response } = await submitResult(page)
    expect(response).toMatchObject({ approved: true })
    const record = (await env.h.control("GET", `/_sandbox/transactions/${response.transaction_id}`)).body.record
    expect(record.number_of_instalments).toBe(3)
    expect((await finalWebhook(response.transaction_id)).number_of_instalments).toBe(3)
    await page.context().close()
  })

  it("sends number_of_instalments null when the shopper keeps no instalments", async () => {
    const session = await createSession(env.h, { terminal_id: "SBX-INSTAL-01" })
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: env.h.testCard("frictionless_approved") })
    await startSubmit(page)
    const { response } = await submitResult(page)
    expect((await finalWebhook(response.transaction_id)).number_of_instalments).toBeNull()
    await screenshot(page, "embedded-instalments-none")
    await page.context().close()
  })

  it("shows no selector on a terminal without instalments", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await frame.locator("#in-cardNumber").waitFor()
    expect(await frame.locator("#in-instalments").count()).toBe(0)
    await screenshot(page, "embedded-instalments-absent")
    await page.context().close()
  })

  it("pays with a saved card (CVV only) and offers instalments for it", async () => {
    // Save a card the way a merchant does: a Direct API authorize with tokenization.
    const saved = await env.h.api("POST", "/api/transactions/authorize", {
      reference: uniqueReference("save"),
      terminal_id: "SBX-INSTAL-01",
      description: "save a card",
      currency: "EUR",
      amount: 100,
      transaction_type: "PURCHASE",
      payment_method: env.h.encryptedCard({ number: env.h.testCard("frictionless_approved") }),
      browser_info: BROWSER_INFO,
      return_url: "https://shop.example/return",
      tokenization: { save_card_for_future_payments: true },
    })
    expect(saved.status).toBe(200)
    const token = saved.body.result.payment_method.token
    expect(token).toBeTruthy()

    const session = await createSession(env.h, { terminal_id: "SBX-INSTAL-01" })
    const { page, frame } = await openCheckout(env, {
      sessionId: session.id,
      type: "saved-card",
      componentConfig: { data: { paymentMethodId: token, maskedPan: "400000******1000", expirationDate: "1230", cardBrand: "VISA" } },
    })
    await frame.getByText("400000******1000").waitFor()
    await frame.getByText("12/30").waitFor()
    const select = frame.locator("#in-instalments")
    await waitFor(async () => !(await select.isDisabled()), { what: "selector enabled for the saved card" })
    expect(await page.evaluate(() => (window as any).__pgs.component.validate())).toBe(false) // CVV is required
    await frame.locator("#in-cvv").fill("123")
    await select.selectOption("2")
    await page.waitForFunction(() => (window as any).__pgs.component.validate())
    await screenshot(page, "embedded-saved-card")
    await startSubmit(page)
    const { response, error } = await submitResult(page)
    expect(error).toBeNull()
    expect(response).toMatchObject({ approved: true })
    const record = (await env.h.control("GET", `/_sandbox/transactions/${response.transaction_id}`)).body.record
    expect(record).toMatchObject({ number_of_instalments: 2, integration_type: "EMBEDDED_FIELDS" })
    expect(record.payment_method.type).toBe("saved_card")
    await page.context().close()
  })
})
