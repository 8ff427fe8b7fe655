/** The alternative-payment-method component: stub factories, no rendering, a redirect URL the host follows. */
import { waitFor } from "../support/sandbox"
import { createSession, describeBrowser, screenshot, startBrowserEnv, type BrowserEnv } from "./support"

describeBrowser("embedded fields: alternative payment methods", () => {
  let env: BrowserEnv
  beforeAll(async () => {
    env = await startBrowserEnv()
  })
  afterAll(async () => {
    await env?.close()
  })

  async function submitAlternative(sessionId: string, paymentMethodType: string) {
    const page = await (await env.browser.newContext()).newPage()
    await page.goto(env.shopUrl)
    const outcome = await page.evaluate(
      async ({ clientKey, sessionId, paymentMethodType }) => {
        const w = window as any
        const factories = ["wallet-one-redirect", "wallet-two-redirect", "bank-scheme-redirect", "openbanking-redirect"].filter(
          (t) => typeof w[t]?.factory === "function",
        )
        const core = await w.PaymentComponent({ clientKey, sessionId, environment: "production" })
        const component = core.create("alternative-payment-method", { paymentMethodType })
        await component.mount("#card")
        const rendered = document.querySelector("#card")!.children.length
        const result = await new Promise((resolve) => component.submitPayment({ customer: { email: "shopper@example.com" }, callback: (response: unknown, error: unknown) => resolve({ response, error }) }))
        let unknownType = ""
        try {
          core.create("alternative-payment-method", { paymentMethodType: "no-such-method" })
        } catch (e) {
          unknownType = String(e)
        }
        return { factories, rendered, result, unknownType, href: location.href }
      },
      { clientKey: env.h.config.client_key, sessionId, paymentMethodType },
    )
    return { page, outcome }
  }

  it("registers the stub factories and returns the wallet redirect without navigating", async () => {
    const session = await createSession(env.h, { return_url: `${env.shopUrl}return` })
    const { page, outcome } = await submitAlternative(session.id, "wallet-one-redirect")
    expect(outcome.factories).toEqual(["wallet-one-redirect", "wallet-two-redirect", "bank-scheme-redirect", "openbanking-redirect"])
    expect(outcome.rendered).toBe(0)
    expect(outcome.href).toBe(env.shopUrl)
    expect(outcome.unknownType).toMatch(/no factory registered for no-such-method/)
    const { response, error } = outcome.result as any
    expect(error).toBeNull()
    expect(response).toMatchObject({ approved: false, status: "PENDING", redirect_url: expect.stringContaining(`${env.h.url}/provider/`) })
    const tx = await env.h.control("GET", `/_sandbox/transactions/${response.transaction_id}`)
    expect(tx.body.record).toMatchObject({ status: "PENDING", integration_type: "EMBEDDED_FIELDS", transaction_type: "PURCHASE", session_id: session.id })

    // The host performs the navigation; the provider approves and sends the shopper back to return_url.
    await page.goto(response.redirect_url)
    await screenshot(page, "embedded-apm-provider-page")
    await page.getByRole("button", { name: /approve/i }).click()
    await page.waitForURL(`${env.shopUrl}return**`)
    await waitFor(async () => (await env.h.control("GET", `/_sandbox/transactions/${response.transaction_id}`)).body.transaction.status === "APPROVED", { what: "approved" })
    await screenshot(page, "embedded-apm-returned")
    await page.context().close()
  })

  it("starts a bank redirect as a PENDING payment", async () => {
    const session = await createSession(env.h, { country: "CA" })
    const { page, outcome } = await submitAlternative(session.id, "bank-scheme-redirect")
    const { response } = outcome.result as any
    expect(response).toMatchObject({ approved: false, status: "PENDING" })
    const tx = await env.h.control("GET", `/_sandbox/transactions/${response.transaction_id}`)
    expect(tx.body.record).toMatchObject({ transaction_type: "PAYMENT", integration_type: "EMBEDDED_FIELDS" })
    await screenshot(page, "embedded-apm-bank-redirect")
    await page.context().close()
  })

  it("rejects a wrong client key when the core starts", async () => {
    const session = await createSession(env.h)
    const page = await (await env.browser.newContext()).newPage()
    await page.goto(env.shopUrl)
    const message = await page.evaluate(async (sessionId) => {
      try {
        await (window as any).PaymentComponent({ clientKey: "sbx_ck_wrong", sessionId, environment: "test" })
        return "resolved"
      } catch (e: any) {
        return `${e.code}: ${e.message}`
      }
    }, session.id)
    expect(message).toMatch(/^INVALID_CLIENT_KEY/)
    await screenshot(page, "embedded-wrong-client-key")
    await page.context().close()
  })
})
