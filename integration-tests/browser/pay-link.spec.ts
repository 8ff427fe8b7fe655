/**
 * Pay by link in Chromium: the customer opens the link an admin copied from the order widget, pays (or is
 * declined) on the sandbox's hosted page, and lands on the plugin's result page; the admin sees what the order
 * owes with the link and its Copy button, and charges a card the customer saved with consent (or is told to send
 * the link when the bank wants the customer). Two tabs paying one link at once take one payment; Cancel on the
 * gateway's page says "Not paid" and the link still pays. Screenshots land in artifacts/screenshots/pay-link-*.png.
 */
import type { Page } from "playwright-core"
import { capturedOrder, editAddingItem, issueLink, openLink, orderOfCardSaverOwingMore, owedByOrder, paidCollection, paymentsOfCollection } from "../http/support/pay-link"
import { waitFor } from "../http/support/webhooks"
import { adminPost } from "../http/support/checkout"
import { expectMedusaAndGatewayAgree } from "../http/support/agreement"
import { pgsStoreSuite } from "../http/support/store"
import { dashboardForEachTest } from "./admin-support"
import { describeBrowser, screenshot } from "./support"

jest.setTimeout(300_000)

/** The store's backendUrl as medusa-config read it, before the runner chose its port. */
const BACKEND_AT_BOOT = "http://localhost:9000"

describeBrowser("pay by link in the browser", () => {
  pgsStoreSuite("pay by link in the browser", (s) => {
    const d = dashboardForEachTest(s)

    async function orderOwingMore() {
      const { orderId } = await capturedOrder(s)
      await editAddingItem(s, orderId)
      const { owed } = await owedByOrder(s, orderId)
      return { orderId, collectionId: owed[0].payment_collection_id }
    }

    /**
     * A shopper's tab: the store's public URL (backendUrl) is served by the running test store, as a proxy would.
     * Chromium does not pass a redirect's target through page.route, so the gateway's redirects back to the store
     * (the result page) are rewritten where they are answered; otherwise they would reach whatever else listens on
     * that port on this machine.
     */
    async function shopperPage(width: number, locale = "en-US"): Promise<Page> {
      const context = await d.page.context().browser()!.newContext({ viewport: { width, height: 800 }, locale })
      const page = await context.newPage()
      await page.route(`${BACKEND_AT_BOOT}/**`, (route) => route.continue({ url: route.request().url().replace(BACKEND_AT_BOOT, s.medusaUrl) }))
      await page.route(`${s.sandbox.url}/**`, async (route) => {
        const response = await route.fetch({ maxRedirects: 0 })
        const headers = response.headers()
        if (headers.location) headers.location = headers.location.replace(BACKEND_AT_BOOT, s.medusaUrl)
        await route.fulfill({ response, headers })
      })
      return page
    }

    async function payOnPage(page: Page, card: string) {
      await page.locator("#card_number").fill(card)
      await page.locator("#expiry_month").fill("12")
      await page.locator("#expiry_year").fill(String(new Date().getFullYear() + 2))
      await page.locator("#cvv").fill("123")
      await page.locator('form[data-choice] button[type="submit"]').first().click()
    }

    it("shows the admin what the order owes, with a pay link to copy", async () => {
      const { orderId } = await orderOwingMore()
      await d.page.goto(`${d.url}/app/orders/${orderId}`)
      const owed = d.page.getByTestId("pgs-owed")
      await owed.getByText("The customer owes 25.50 EUR").waitFor()
      await owed.getByRole("button", { name: "Create pay link" }).click()
      const link = d.page.getByTestId("pgs-pay-link")
      await link.getByRole("button", { name: "Copy" }).waitFor()
      expect(await link.getByLabel("Pay link").inputValue()).toMatch(/\/pgs\/pay\/pay_col_\w+\?t=\d+\.[\w-]{43}$/)
      await owed.scrollIntoViewIfNeeded()
      await screenshot(d.page, "pay-link-admin-widget-1280")
      await d.page.setViewportSize({ width: 360, height: 900 })
      await owed.scrollIntoViewIfNeeded()
      await screenshot(d.page, "pay-link-admin-widget-360")
    })

    it("charges the saved card from the order widget, or says why not (3-D Secure wanted, declined) and offers the link", async () => {
      const wanting = await orderOfCardSaverOwingMore(s, "redirect_interactive")
      await d.page.goto(`${d.url}/app/orders/${wanting.orderId}`)
      const owed = d.page.getByTestId("pgs-owed")
      await owed.getByRole("button", { name: /Charge saved card/ }).click()
      await d.page.getByTestId("pgs-charge-refusal").getByText(/confirm this payment \(3-D Secure\).*pay link/).waitFor()
      await owed.getByRole("button", { name: "Create pay link" }).click()
      await d.page.getByTestId("pgs-pay-link").waitFor()
      await owed.scrollIntoViewIfNeeded()
      await screenshot(d.page, "pay-link-admin-charge-refused-1280")

      // Declined by the bank (insufficient funds on a card approved at checkout): why, in words, and the link.
      const poor = await orderOfCardSaverOwingMore(s, "frictionless_insufficient_funds", { simulatedFlow: "VERSIONING_NOT_ENROLLED" })
      await d.page.goto(`${d.url}/app/orders/${poor.orderId}`)
      const declined = d.page.getByTestId("pgs-owed")
      await declined.getByRole("button", { name: /Charge saved card/ }).click()
      await d.page.getByTestId("pgs-charge-refusal").getByText("The card was not charged: the bank declined it for insufficient funds. Send the customer the pay link instead.").waitFor()
      await declined.getByRole("button", { name: "Create pay link" }).waitFor()
      await declined.scrollIntoViewIfNeeded()
      await screenshot(d.page, "pay-link-admin-charge-declined-1280")
      expect((await paymentsOfCollection(s, poor.orderId, poor.collectionId)).payments).toHaveLength(0)

      const paying = await orderOfCardSaverOwingMore(s)
      await d.page.goto(`${d.url}/app/orders/${paying.orderId}`)
      const row = d.page.getByTestId("pgs-owed")
      await row.getByRole("button", { name: /Charge saved card/ }).waitFor()
      await row.scrollIntoViewIfNeeded()
      await screenshot(d.page, "pay-link-admin-charge-offered-1280")
      await d.page.setViewportSize({ width: 360, height: 900 })
      await row.scrollIntoViewIfNeeded()
      await screenshot(d.page, "pay-link-admin-charge-offered-360")
      await d.page.setViewportSize({ width: 1440, height: 1000 })
      await row.getByRole("button", { name: /Charge saved card/ }).click()
      await row.waitFor({ state: "detached" })
      expect((await paymentsOfCollection(s, paying.orderId, paying.collectionId)).payments).toHaveLength(1)
    })

    it("takes one payment when two tabs pay one link at once, and after Cancel says Not paid and pays on the next visit", async () => {
      const card = s.sandbox.testCard("frictionless_approved")
      const owing = await orderOwingMore()
      const { url } = await issueLink(s, owing.orderId, owing.collectionId)
      const tabs = [await shopperPage(1280), await shopperPage(1280)]
      await Promise.all(tabs.map((tab) => tab.goto(url)))
      for (const tab of tabs) await tab.locator("#card_number").waitFor()
      // Both tabs are on the same gateway page: one reference, so at most one charge.
      expect(tabs[1].url()).toBe(tabs[0].url())
      const pageId = /\/hpp\/([^/?]+)$/.exec(tabs[0].url())![1]
      const reference = s.sandbox.sandbox.context.store.hostedPages.get(pageId)!.reference
      await Promise.all(tabs.map((tab) => payOnPage(tab, card)))
      for (const tab of tabs) await tab.locator('main[data-state="paid"]').waitFor({ timeout: 60_000 })
      await screenshot(tabs[1], "pay-link-two-tabs-second-paid-1280")
      for (const tab of tabs) await tab.context().close()
      const charged = [...s.sandbox.sandbox.context.store.transactions.values()].filter((tx: any) => tx.reference === reference)
      expect(charged.map((tx: any) => tx.status)).toEqual(["APPROVED"])
      const { payments } = await paidCollection(s, owing.orderId, owing.collectionId)
      expect(payments).toHaveLength(1)
      if (!payments[0].captured_at) expect((await adminPost(s, `/admin/payments/${payments[0].id}/capture`)).status).toBe(200)
      expect(await expectMedusaAndGatewayAgree(s, owing.orderId)).toBe(0)

      const canceling = await orderOwingMore()
      const link = (await issueLink(s, canceling.orderId, canceling.collectionId)).url
      const page = await shopperPage(360)
      await page.goto(link)
      await page.locator('form[data-choice="cancel"] button').click()
      await page.locator('main[data-state="canceled"]').getByText("nothing was charged").waitFor()
      // Only the page's Start over (a POST) closes the gateway's page; the GET that showed it changed nothing.
      await page.getByRole("button", { name: "Start over" }).click()
      await page.locator('main[data-state="notPaid"]').getByText("nothing was charged").waitFor()
      await screenshot(page, "pay-link-result-not-paid-360")
      expect((await paymentsOfCollection(s, canceling.orderId, canceling.collectionId)).payments).toEqual([])
      expect(await expectMedusaAndGatewayAgree(s, canceling.orderId)).toBe(s.seed.prices.eur)
      // The shopper changes their mind: the link opens a page that can be paid.
      await page.goto(link)
      await payOnPage(page, card)
      await page.locator('main[data-state="paid"]').waitFor({ timeout: 60_000 })
      await page.context().close()
      expect((await paidCollection(s, canceling.orderId, canceling.collectionId)).payments).toHaveLength(1)
    })

    it("takes the customer from the link to the gateway's page and back to a page saying it is paid", async () => {
      const { orderId, collectionId } = await orderOwingMore()
      const { url } = await issueLink(s, orderId, collectionId)
      for (const width of [360, 1280]) {
        const page = await shopperPage(width)
        await page.goto(url)
        await page.locator("#card_number").waitFor()
        if (width === 360) {
          const declinedPage = page.url()
          await payOnPage(page, s.sandbox.testCard("frictionless_insufficient_funds"))
          await page.locator('main[data-state="failed"]').waitFor()
          await screenshot(page, "pay-link-result-failed-360")
          // Once the decline's webhook is recorded, the link opens a new page for the next try.
          await waitFor(async () => ((await openLink(url.replace(BACKEND_AT_BOOT, s.medusaUrl))).location ?? declinedPage) !== declinedPage || undefined, { what: "a new page after the decline" })
        } else {
          await payOnPage(page, s.sandbox.testCard("frictionless_approved"))
          // "Confirming…" reloads itself until the webhook recorded the payment.
          await page.locator('main[data-state="paid"]').waitFor({ timeout: 60_000 })
          await screenshot(page, "pay-link-result-paid-1280")
        }
        await page.context().close()
      }
      await paidCollection(s, orderId, collectionId)
      // A second visit after payment says so, in the customer's language.
      const again = await shopperPage(360, "sv-SE")
      await again.goto(url)
      await again.locator('main[data-state="paid"]').getByText("Betald").waitFor()
      await screenshot(again, "pay-link-result-paid-sv-360")
      await again.context().close()
    })
  }, { env: { PGS_SAVED_CARD_CONSENT: "true" } })
})
