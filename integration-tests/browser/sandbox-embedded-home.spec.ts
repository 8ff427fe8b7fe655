/** The sandbox home page shows the payments just made through the embedded fields and their webhook deliveries. */
import { waitFor } from "../support/sandbox"
import { startWebhookReceiver } from "../support/webhook-receiver"
import { createSession, describeBrowser, fillCard, openCheckout, screenshot, startBrowserEnv, startSubmit, submitResult, type BrowserEnv } from "./support"

describeBrowser("sandbox home page", () => {
  let env: BrowserEnv
  let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>
  beforeAll(async () => {
    env = await startBrowserEnv()
    // The first delivery fails, so the page has a retried delivery with two answers to show.
    hooks = await startWebhookReceiver((_hit, index) => (index === 0 ? 500 : 200))
    await env.h.control("POST", "/_sandbox/webhooks", { url: hooks.url })
  })
  afterAll(async () => {
    await env?.close()
    await hooks?.close()
  })

  it("lists recent transactions with their state, deliveries with answers, test cards and a masked secret", async () => {
    const session = await createSession(env.h, { terminal_id: "SBX-INSTAL-01" })
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: env.h.testCard("frictionless_approved") })
    await frame.locator("#in-instalments").selectOption("6")
    await startSubmit(page)
    const { response } = await submitResult(page)
    await waitFor(async () => {
      const res = await env.h.control("GET", `/_sandbox/webhooks/deliveries?subject_id=${response.transaction_id}`)
      return res.body.deliveries.some((d: { state: string; attempts: unknown[] }) => d.state === "delivered" && d.attempts.length === 2)
    }, { what: "a delivery retried once" })

    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(env.h.url)
    const row = page.locator(`#transactions tr[data-transaction="${response.transaction_id}"]`)
    await row.waitFor()
    expect(await row.textContent()).toMatch(/APPROVED/)
    expect(await row.textContent()).toMatch(/EMBEDDED_FIELDS/)
    expect(await row.locator("td").last().textContent()).toBe("6")
    expect(await row.locator("a").getAttribute("href")).toBe(`/_sandbox/transactions/${response.transaction_id}`)
    const delivery = page.locator("#deliveries tr", { hasText: response.transaction_id }).first()
    expect(await delivery.textContent()).toMatch(/delivered/)
    expect(await delivery.textContent()).toMatch(/500, 200/)
    expect(await page.locator("#test-cards").textContent()).toContain(env.h.testCard("redirect_interactive", "MASTERCARD"))
    const secret = await page.locator("#client-secret").textContent()
    expect(secret).not.toContain(env.h.config.client_secret)
    expect(secret).toContain(env.h.config.client_secret.slice(-4))
    expect(await page.locator("#connect").textContent()).toContain(env.h.config.client_key)
    await screenshot(page, "sandbox-home")

    const detail = await page.goto(`${env.h.url}/_sandbox/transactions/${response.transaction_id}`)
    expect((await detail!.json()).transaction.status).toBe("APPROVED")
    await page.context().close()
  })
})
