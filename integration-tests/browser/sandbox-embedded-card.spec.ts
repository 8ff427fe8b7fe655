/** The embedded card fields in real Chromium: a shop page on another origin mounts the sandbox's card frame. */
import { waitFor } from "../support/sandbox"
import { createSession, describeBrowser, fillCard, openCheckout, screenshot, startBrowserEnv, startSubmit, submitResult, type BrowserEnv } from "./support"

describeBrowser("embedded fields: card payments", () => {
  let env: BrowserEnv
  beforeAll(async () => {
    env = await startBrowserEnv()
  })
  afterAll(async () => {
    await env?.close()
  })

  it("approves a frictionless test card and records the transaction as APPROVED", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: env.h.testCard("frictionless_approved") })
    await startSubmit(page, { firstName: "Ada", lastName: "Lovelace", email: "ada@example.com" })
    const { response, error } = await submitResult(page)
    expect(error).toBeNull()
    expect(response).toMatchObject({ approved: true, status: "APPROVED", session_id: session.id, processing_code: "0000" })
    const tx = await env.h.control("GET", `/_sandbox/transactions/${response.transaction_id}`)
    expect(tx.body.transaction).toMatchObject({ status: "APPROVED", reference: session.reference, amount: 2599 })
    expect(tx.body.record).toMatchObject({ integration_type: "EMBEDDED_FIELDS", session_id: session.id })
    expect(tx.body.record.customer).toMatchObject({ first_name: "Ada", email: "ada@example.com" })
    expect(tx.body.record.browser_info.user_agent).toContain("Chrome")
    await frame.getByText("Payment approved").waitFor()
    await screenshot(page, "embedded-card-approved")
    await page.context().close()
  })

  it("refuses a second payment of an approved session", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: env.h.testCard("frictionless_approved") })
    await startSubmit(page)
    expect((await submitResult(page)).response.approved).toBe(true)
    // A second component on the same session (e.g. a reloaded page) cannot pay again.
    const again = await openCheckout(env, { sessionId: session.id })
    await again.frame.getByText("This payment session is already paid").waitFor()
    await screenshot(again.page, "embedded-card-already-paid")
    await page.context().close()
    await again.page.context().close()
  })

  it("reports an insufficient-funds decline with approved false, and lets the shopper retry", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await fillCard(frame, { number: env.h.testCard("frictionless_insufficient_funds", "MASTERCARD") })
    await startSubmit(page)
    const { response, error } = await submitResult(page)
    expect(error).toBeNull()
    expect(response).toMatchObject({ approved: false, status: "DECLINED" })
    const tx = await env.h.control("GET", `/_sandbox/transactions/${response.transaction_id}`)
    expect(tx.body.transaction.status).toBe("DECLINED")
    expect(tx.body.transaction.response_message).toMatch(/INSUFFICIENT_FUNDS|Insufficient/i)
    await frame.getByText("The payment was declined").waitFor()
    await screenshot(page, "embedded-card-declined")
    // Retry with another card in the same session.
    await fillCard(frame, { number: env.h.testCard("frictionless_approved") })
    await startSubmit(page)
    expect((await submitResult(page)).response).toMatchObject({ approved: true })
    await page.context().close()
  })

  it("shows validation errors for empty and invalid fields", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, {
      sessionId: session.id,
      componentConfig: { customerConfig: { hasHolderName: true, holderNameRequired: true, hasHolderEmail: true, holderEmailRequired: false } },
    })
    expect(await page.evaluate(() => (window as any).__pgs.component.validate())).toBe(false)
    const empty = await page.evaluate(() => (window as any).__pgs.component.getDataWithValidation())
    expect(empty.isValid).toBe(false)
    expect(empty.invalidFields.map((f: { field: string }) => f.field).sort()).toEqual(["cardNumber", "cvv", "expirationDate", "holderName"])
    await frame.locator("#err-cardNumber").getByText("This field is required").waitFor()

    await fillCard(frame, { number: "4000 0000 0000 1001", expiry: "13/30", cvv: "12" })
    await frame.locator("#in-holderEmail").fill("not-an-email")
    await frame.locator("#in-holderName").fill("Ada Lovelace")
    await page.waitForFunction(() => (window as any).__pgs.component.getDataWithValidation().invalidFields.length === 4)
    const invalid = await page.evaluate(() => (window as any).__pgs.component.getDataWithValidation())
    expect(invalid.invalidFields).toEqual(
      expect.arrayContaining([
        { field: "cardNumber", message: "Card number is invalid" },
        { field: "expirationDate", message: "Use the format MM/YY" },
        { field: "cvv", message: "CVV must be 3 or 4 digits" },
        { field: "holderEmail", message: "Email address is invalid" },
      ]),
    )
    // submitPayment does not send an invalid form; the callback gets the validation error.
    await startSubmit(page)
    const { response, error } = await submitResult(page)
    expect(response).toBeNull()
    expect(error.code).toBe("VALIDATION_ERROR")
    expect(await page.evaluate(() => (window as any).__pgs.changes.length)).toBeGreaterThan(0)
    expect(await page.evaluate(() => (window as any).__pgs.component.getCustomer())).toEqual({ holderName: "Ada Lovelace", email: "not-an-email" })
    await screenshot(page, "embedded-card-validation")
    const txs = await env.h.control("GET", "/_sandbox/transactions")
    expect(txs.body.transactions.some((t: { reference: string }) => t.reference === session.reference)).toBe(false)
    await page.context().close()
  })

  it("switches labels with changeLocale and follows the browser language when no locale is given", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, { sessionId: session.id, browserLocale: "ro-RO" })
    await frame.locator('label[for="in-cardNumber"]').getByText("Număr card").waitFor()
    await page.evaluate(() => (window as any).__pgs.component.changeLocale("sv-SE"))
    await frame.locator('label[for="in-cardNumber"]').getByText("Kortnummer").waitFor()
    await frame.locator('label[for="in-expirationDate"]').getByText("Utgångsdatum").waitFor()
    expect(await page.evaluate(() => (window as any).__pgs.component.validate())).toBe(false)
    await frame.locator("#err-cardNumber").getByText("Fältet är obligatoriskt").waitFor()
    await screenshot(page, "embedded-card-locale-sv")
    await page.context().close()
  })

  it("applies the host element's CSS variables inside the iframe", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, {
      sessionId: session.id,
      shopCss: "#card { --lib-input-border-color: rgb(12, 34, 56); --lib-label-font-size: 17px; --lib-font-family: monospace; --lib-warning-color: rgb(200, 0, 100) }",
    })
    const input = frame.locator("#in-cardNumber")
    expect(await input.evaluate((el) => getComputedStyle(el).borderTopColor)).toBe("rgb(12, 34, 56)")
    expect(await frame.locator('label[for="in-cardNumber"]').evaluate((el) => getComputedStyle(el).fontSize)).toBe("17px")
    expect(await frame.locator("body").evaluate((el) => getComputedStyle(el).fontFamily)).toBe("monospace")
    await page.evaluate(() => (window as any).__pgs.component.validate())
    await waitFor(async () => (await frame.locator("#err-cvv").evaluate((el) => getComputedStyle(el).color)) === "rgb(200, 0, 100)", { what: "warning colour" })
    await screenshot(page, "embedded-card-css-variables")
    await page.context().close()
  })

  it("unmounts, mounts again with a fresh form, and destroy removes every frame", async () => {
    const session = await createSession(env.h)
    const { page, frame } = await openCheckout(env, { sessionId: session.id })
    await frame.locator("#in-cardNumber").fill("4000 0000 0000 1000")
    await page.evaluate(() => (window as any).__pgs.component.unmount())
    expect(await page.locator("#card iframe").count()).toBe(0)
    expect(await page.evaluate(() => (window as any).__pgs.component.validate())).toBe(false)
    await page.evaluate(() => (window as any).__pgs.component.mount("#card"))
    expect(await frame.locator("#in-cardNumber").inputValue()).toBe("")
    await fillCard(frame, { number: env.h.testCard("frictionless_approved") })
    await page.waitForFunction(() => (window as any).__pgs.component.validate())
    await startSubmit(page)
    expect((await submitResult(page)).response.approved).toBe(true)
    await page.evaluate(() => (window as any).__pgs.core.destroy())
    expect(await page.locator("iframe").count()).toBe(0)
    await screenshot(page, "embedded-card-destroyed")
    await page.context().close()
  })
})
