/**
 * Pay by link: an order that comes to owe more (Medusa's order edit) is paid through `/pgs/pay/{collection}` on the
 * gateway's hosted page, with no storefront; the webhook records it once, whatever the tabs and visits; a link to a
 * canceled order charges nothing; money is refunded per payment across the checkout's and the link's payments.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { cancelOnHostedPage, capturedOrder, editAddingItem, issueLink, orderFromDraft, openLink, owedByOrder, paidCollection, paymentsOfCollection, payOnHostedPage, startOver } from "../support/pay-link"
import { ORDER_CHANGES_OWING_MORE, returnEverything } from "../support/order-changes"
import { drillOrderChange } from "../support/order-change-drill"
import { expectMedusaAndGatewayAgree } from "../support/agreement"
import { unreachable } from "../support/attention"
import { admin } from "../support/admin-pgs"
import { adminPost, ledger, minor } from "../support/checkout"
import { storeBody } from "../support/store"
import { processedEvent, waitFor } from "../support/webhooks"
import { signPayLink } from "../../../src/payments/pay-link"
import { runRecordedEvent } from "../../../src/workflows/process-pgs-event"

/** The store's backendUrl as medusa-config read it (the sandbox's store settings). */
const BACKEND_AT_BOOT = "http://localhost:9000"

export default storeBody("pay by link", (s) => {
  /**
   * The store's public URL (option backendUrl) is fixed when medusa-config loads, before the test runner picks
   * its port: links are opened at the running server, as a proxy in front of it would.
   */
  const here = (url: string) => url.replace(/^https?:\/\/[^/]+/, s.medusaUrl)

  /** An order paid at checkout, then edited to owe one more item; its new collection and a fresh link. */
  async function orderOwingMore() {
    const { orderId } = await capturedOrder(s)
    await editAddingItem(s, orderId)
    const { owed, pendingDifference } = await owedByOrder(s, orderId)
    expect(owed).toHaveLength(1)
    expect(owed[0]).toMatchObject({ amount: "25.50", currency_code: "eur" })
    expect(pendingDifference).toBe(s.seed.prices.eur)
    const issued = await issueLink(s, orderId, owed[0].payment_collection_id)
    expect(issued.url).toMatch(new RegExp(`^${BACKEND_AT_BOOT}/pgs/pay/${owed[0].payment_collection_id}\\?t=\\d+\\.[\\w-]{43}$`))
    return { orderId, collectionId: owed[0].payment_collection_id, link: { ...issued, url: here(issued.url) } }
  }

  /** The gateway's approved transactions of one reference (the sandbox runs in this process). */
  const approvedFor = (reference: string) =>
    [...s.sandbox.sandbox.context.store.transactions.values()].filter((tx: any) => tx.reference === reference && tx.status === "APPROVED")
  const pagesMade = () => s.sandbox.sandbox.context.store.hostedPages.size
  /** Every gateway transaction (any status) made for one reference. */
  const transactionsFor = (reference: string) => [...s.sandbox.sandbox.context.store.transactions.values()].filter((tx: any) => tx.reference === reference)
  const hostedPage = (url: string) => s.sandbox.sandbox.context.store.hostedPages.get(/\/hpp\/([^/?]+)$/.exec(url)![1])!

  /** Captures the link's payment when the terminal only authorized it (as the dashboard does). */
  async function captureIfAuthorized(payment: any) {
    if (!payment.captured_at) expect((await adminPost(s, `/admin/payments/${payment.id}/capture`)).status).toBe(200)
  }

  it("pays what an order edit added on the gateway's hosted page, once, and a later visit says it is paid", async () => {
    const { orderId, collectionId, link } = await orderOwingMore()

    // Two tabs at once, and a later visit before paying, go to the same page: one reference, one possible charge.
    const [first, second] = await Promise.all([openLink(link.url), openLink(link.url)])
    expect(first.status).toBe(303)
    expect(first.location).toMatch(/\/hpp\//)
    expect(second.location).toBe(first.location)
    expect((await openLink(link.url)).location).toBe(first.location)

    const pageId = /\/hpp\/([^/?]+)$/.exec(first.location!)![1]
    const page = s.sandbox.sandbox.context.store.hostedPages.get(pageId)!
    const { display_id } = (await admin(s, "get", `/admin/orders/${orderId}?fields=id,display_id`)).data.order
    // The payer is told what they pay for as the shop names it: the order's number, not a session id.
    expect(page).toMatchObject({ amount: minor(s.seed.prices.eur), currency: "EUR", description: `Order #${display_id}` })
    // The payer comes from the order (its email and billing address), not from whoever opens the link.
    const order = (await admin(s, "get", `/admin/orders/${orderId}?fields=id,email`)).data.order
    expect(page.customer).toMatchObject({ email: order.email, first_name: "Ada", last_name: "Lovelace", country: "DE" })
    expect(page.success_url).toMatch(new RegExp(`^${BACKEND_AT_BOOT}/pgs/pay-result\\?pgs_session=payses_\\w+&pgs_outcome=success$`))

    const back = await payOnHostedPage(first.location!, s.sandbox.testCard("frictionless_approved"))
    expect(back).toBe(page.success_url)
    const { payments } = await paidCollection(s, orderId, collectionId)
    expect(payments).toHaveLength(1)
    expect(payments[0].provider_id).toBe("pp_pgs-hosted_pgs")
    expect(Number(payments[0].amount)).toBe(s.seed.prices.eur)

    // The result page may say "confirming" (it reloads itself) while Medusa is still writing the webhook's payment.
    await waitFor(async () => ((await openLink(here(back!))).state === "paid" ? true : null), { what: "the result page saying paid" })
    const again = await openLink(link.url)
    expect(again).toMatchObject({ status: 200, state: "paid", location: null })
    // The visits after payment took nothing more: one approved transaction for the page's reference.
    expect(approvedFor(page.reference)).toHaveLength(1)

    // Medusa and the gateway agree: once the link's payment is captured the order owes nothing.
    if (!payments[0].captured_at) expect((await adminPost(s, `/admin/payments/${payments[0].id}/capture`)).status).toBe(200)
    const after = await owedByOrder(s, orderId)
    expect(after.pendingDifference).toBe(0)
    expect(after.owed).toEqual([])
  })

  it("records the payment when the customer comes back, even if the gateway's webhook never arrives", async () => {
    const { orderId, collectionId, link } = await orderOwingMore()
    const gateway = await unreachable(s)
    try {
      const opened = await openLink(link.url)
      const back = await payOnHostedPage(opened.location!, s.sandbox.testCard("frictionless_approved"))
      expect(back).toContain("pgs_outcome=success")
      expect((await openLink(here(back!))).state).toBe("paid")
      // The webhook arriving later finds it applied: still one payment.
      const again = await openLink(here(back!))
      expect(again.state).toBe("paid")
    } finally {
      await gateway.reachable()
    }
    const { payments } = await paymentsOfCollection(s, orderId, collectionId)
    expect(payments).toHaveLength(1)
  })

  it("pays a draft order turned into an order through the link", async () => {
    const orderId = await orderFromDraft(s)
    // A draft made through the Admin API with inline items gets no payment collection from Medusa: one is made for the
    // outstanding amount (POST /admin/payment-collections, docs/pay-by-link.md), which the plugin's link then pays.
    expect((await owedByOrder(s, orderId)).owed).toEqual([])
    const made = await admin(s, "post", "/admin/payment-collections", { order_id: orderId, amount: s.seed.prices.eur })
    expect(made.status).toBe(200)
    const { owed } = await owedByOrder(s, orderId)
    expect(owed).toEqual([expect.objectContaining({ amount: "25.50", currency_code: "eur" })])
    const opened = await openLink(here((await issueLink(s, orderId, owed[0].payment_collection_id)).url))
    await payOnHostedPage(opened.location!, s.sandbox.testCard("frictionless_approved"))
    const { payments } = await paidCollection(s, orderId, owed[0].payment_collection_id)
    if (!payments[0].captured_at) expect((await adminPost(s, `/admin/payments/${payments[0].id}/capture`)).status).toBe(200)
    const after = await owedByOrder(s, orderId)
    expect(after.owed).toEqual([])
    expect(after.pendingDifference).toBe(0)
  })

  it("lets the shopper try another card on the same link after a decline, with a new reference", async () => {
    const { orderId, collectionId, link } = await orderOwingMore()
    const first = await openLink(link.url)
    const declinedBack = await payOnHostedPage(first.location!, s.sandbox.testCard("frictionless_insufficient_funds"))
    expect(declinedBack).toContain("pgs_outcome=error")
    const failed = await openLink(here(declinedBack!))
    expect(failed.state).toBe("failed")
    // What to do next, and whom to ask: the shop's storefront. Nothing on the return address takes a payment (no
    // link to the pay link or the gateway's page, no form), so whoever holds that address cannot pay with it.
    expect(failed.body).toContain("To try another card, open the payment link from your email or message again.")
    expect(failed.body).toContain('Questions? Contact the shop: <a href="http://localhost:8000">localhost:8000</a>')
    expect(failed.body).not.toMatch(/\/pgs\/pay\/|\/hpp\/|<form/)
    // The decline reaches Medusa through the webhook; then the link opens a new page.
    const retry = await waitFor(async () => {
      const opened = await openLink(link.url)
      return opened.location && opened.location !== first.location ? opened : undefined
    }, { what: "a new hosted page after the decline" })
    // The declined page's own return address now says a newer page replaced it (the order still owes), not "not found".
    expect(await openLink(here(declinedBack!))).toMatchObject({ status: 409, state: "replaced" })
    const back = await payOnHostedPage(retry.location!, s.sandbox.testCard("frictionless_approved"))
    expect(back).toContain("pgs_outcome=success")
    const { payments } = await paidCollection(s, orderId, collectionId)
    expect(payments).toHaveLength(1)
    const pages = [first.location, retry.location].map((u) => s.sandbox.sandbox.context.store.hostedPages.get(/\/hpp\/([^/?]+)$/.exec(u!)![1])!)
    expect(pages[0].reference).not.toBe(pages[1].reference)
  })

  it("charges nothing when the link is opened after the order was canceled", async () => {
    const { orderId, link } = await orderOwingMore()
    const before = pagesMade()
    const canceled = await adminPost(s, `/admin/orders/${orderId}/cancel`)
    expect(canceled.status).toBe(200)
    const opened = await openLink(link.url)
    expect(opened).toMatchObject({ status: 410, state: "closed", location: null })
    expect(pagesMade()).toBe(before)
  })

  it("gives the money back when the shopper pays a page opened before the order was canceled", async () => {
    const { orderId, link } = await orderOwingMore()
    const opened = await openLink(link.url)
    expect(opened.status).toBe(303)
    expect((await adminPost(s, `/admin/orders/${orderId}/cancel`)).status).toBe(200)
    expect(await openLink(link.url)).toMatchObject({ status: 410, state: "closed" })

    const page = s.sandbox.sandbox.context.store.hostedPages.get(/\/hpp\/([^/?]+)$/.exec(opened.location!)![1])!
    await payOnHostedPage(opened.location!, s.sandbox.testCard("frictionless_approved"))
    const [tx] = await waitFor(async () => {
      const found = approvedFor(page.reference)
      return found.length ? found : undefined
    }, { what: "the late payment at the gateway" })
    // The existing late-money path releases (void) or refunds it, once.
    const givenBack = await waitFor(async () => {
      const ops = (await ledger(s.sandbox)).filter((e) => e.parent_id === (tx as any).id && (e.transaction_type === "VOID" || e.transaction_type === "REFUND") && !e.replay)
      return ops.length ? ops : undefined
    }, { what: "the late payment given back" })
    expect(givenBack).toHaveLength(1)
    expect(givenBack[0]).toMatchObject({ amount: minor(s.seed.prices.eur), status: "APPROVED" })
    // The void's own webhook is settled as the plugin's give-back, not left waiting for a payment that never comes.
    const voided = await processedEvent(s, givenBack[0].transaction_id)
    expect(voided.outcome).toBe("ignored:late_money_given_back")
    // The order's widget shows that transaction on the link's payment, and that it was given back.
    const view = (await admin(s, "get", `/admin/pgs/orders/${orderId}/gateway`)).data
    expect(view.payments.filter((p: any) => p.late_money_given_back)).toEqual([
      expect.objectContaining({ payment_id: null, transaction_id: (tx as any).id, late_money_given_back: "void", gateway: expect.objectContaining({ id: (tx as any).id }) }),
    ])
  })

  it("gives the money back, naming the order, when the shop marked the order paid while the shopper had the page open, and tells the shopper nothing is owed", async () => {
    const { orderId, collectionId, link } = await orderOwingMore()
    const opened = await openLink(link.url)
    expect(opened.status).toBe(303)
    // The shop took the money another way: Medusa's Mark as paid replaces the link's payment session.
    expect((await adminPost(s, `/admin/payment-collections/${collectionId}/mark-as-paid`, { order_id: orderId })).status).toBe(200)

    const page = hostedPage(opened.location!)
    const back = await payOnHostedPage(opened.location!, s.sandbox.testCard("frictionless_approved"))
    const [tx] = await waitFor(async () => {
      const found = approvedFor(page.reference)
      return found.length ? found : undefined
    }, { what: "the late payment at the gateway" })
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const item = await waitFor(() => knex("pgs_follow_up").where({ key: `refund:${(tx as any).id}`, state: "done" }).first(), { what: "the late payment given back" })
    // Said of the order, not of a cart that moved on.
    expect(item).toMatchObject({ kind: "late_refund", order_id: orderId })
    expect(item.note).toBe(`${s.seed.prices.eur.toFixed(2)} EUR was paid, but the order's payment request was already paid or replaced when the payment arrived. It was released automatically (voided).`)
    // The shopper comes back to "Nothing to pay … given back to you", not "Link not found".
    expect(await openLink(here(back!))).toMatchObject({ status: 410, state: "settled" })
  })

  it("closes the late money's item when the gateway's message confirms the give-back whose answer was lost", async () => {
    const { orderId, link } = await orderOwingMore()
    const opened = await openLink(link.url)
    expect((await adminPost(s, `/admin/orders/${orderId}/cancel`)).status).toBe(200)
    const page = hostedPage(opened.location!)
    await payOnHostedPage(opened.location!, s.sandbox.testCard("frictionless_approved"))
    const [tx] = await waitFor(async () => {
      const found = approvedFor(page.reference)
      return found.length ? found : undefined
    }, { what: "the late payment at the gateway" })
    const knex = s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION)
    const key = `refund:${(tx as any).id}`
    const voidTx = await waitFor(async () => (await ledger(s.sandbox)).find((e) => e.parent_id === (tx as any).id && e.transaction_type === "VOID" && !e.replay), { what: "the void" })
    const event = await processedEvent(s, voidTx.transaction_id)
    // As late-money.ts leaves it when the void's answer is lost: a person is asked to check.
    const lost = "25.50 EUR was paid, but the order was already canceled when the payment arrived. The gateway's answer to giving it back was lost: check the gateway dashboard before refunding by hand."
    await knex("pgs_follow_up").where({ key }).update({ state: "needs_person", resolved_at: null, note: lost })
    // The void's own message, run again as the gateway's retry would run it, closes the item and says so.
    await knex("pgs_webhook_event").where({ id: event.id }).update({ processed_at: null, outcome: null })
    await runRecordedEvent(s.container(), event.id)
    const item = await knex("pgs_follow_up").where({ key }).first()
    expect([item.state, item.note]).toEqual(["done", `${lost} The gateway's message confirms it was given back (void).`])
  })

  it("answers 404 alike for an unknown, malformed or unsigned link, and 410 for an expired one", async () => {
    const { collectionId, link } = await orderOwingMore()
    const unknownId = "pay_col_01JZZZZZZZZZZZZZZZZZZZZZZZ"
    const secret = process.env.PGS_CLIENT_SECRET!
    const cases = [
      `${s.medusaUrl}/pgs/pay/${unknownId}?t=${signPayLink(secret, unknownId, Date.now() + 60_000)}`,
      `${s.medusaUrl}/pgs/pay/not-an-id`,
      `${s.medusaUrl}/pgs/pay/${collectionId}`,
      `${s.medusaUrl}/pgs/pay/${collectionId}?t=${link.url.split("t=")[1].replace(/.$/, (c) => (c === "A" ? "B" : "A"))}`,
      `${s.medusaUrl}/pgs/pay/${collectionId}?t=${signPayLink("another secret", collectionId, Date.now() + 60_000)}`,
    ]
    for (const url of cases) expect(await openLink(url)).toMatchObject({ status: 404, state: "unknown", location: null })
    const expired = await openLink(`${s.medusaUrl}/pgs/pay/${collectionId}?t=${signPayLink(secret, collectionId, Date.now() - 1000)}`)
    expect(expired).toMatchObject({ status: 410, state: "expired" })
    // Hostile input on the new prefix is answered by the plugin's guard, never a 5xx.
    expect((await openLink(`${s.medusaUrl}/pgs/pay/%ff`)).status).toBe(400)
    expect((await openLink(`${s.medusaUrl}/pgs/pay/${collectionId}?t=%00`)).status).toBe(400)
    expect((await openLink(`${s.medusaUrl}/pgs/pay-result?pgs_session=payses_nothing`)).status).toBe(404)
  })

  it("sends its pages as HTML only, never framed by another site and with no Referer", async () => {
    const { collectionId } = await orderOwingMore()
    const pages = [
      await openLink(`${s.medusaUrl}/pgs/pay/${collectionId}`),
      await openLink(`${s.medusaUrl}/pgs/pay-result?pgs_session=payses_01JZZZZZZZZZZZZZZZZZZZZZZZ&pgs_outcome=cancel`),
    ]
    for (const page of pages) {
      expect(page.headers["content-type"]).toBe("text/html; charset=utf-8")
      expect(page.headers["x-content-type-options"]).toBe("nosniff")
      expect(page.headers["content-security-policy"]).toContain("frame-ancestors 'none'")
      expect(page.headers["x-frame-options"]).toBe("DENY")
      expect(page.headers["referrer-policy"]).toBe("no-referrer")
    }
  })

  it("speaks the shopper's language on its pages", async () => {
    const { link } = await orderOwingMore()
    const forged = link.url.replace(/t=\d+/, "t=1")
    expect((await openLink(`${link.url}&lang=sv-SE`)).status).toBe(303)
    const page = await openLink(`${s.medusaUrl}/pgs/pay/not-an-id`, { "accept-language": "ro-RO,ro;q=0.9" })
    expect(page.body).toContain('lang="ro-RO"')
    expect(page.body).toContain("Link negăsit")
    expect((await openLink(`${forged}&lang=bs`)).body).toContain("Link nije pronađen")
  })

  it("refunds a return through Medusa's flow per payment when the order was paid at checkout and by link; a refund beyond one payment's capture is refused whole", async () => {
    const { orderId, collectionId, link } = await orderOwingMore()
    await payOnHostedPage((await openLink(link.url)).location!, s.sandbox.testCard("frictionless_approved"))
    await captureIfAuthorized((await paidCollection(s, orderId, collectionId)).payments[0])
    expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(0)

    // Both items come back through Medusa's return (requested, received, confirmed): the shop now owes the customer.
    await returnEverything(s, orderId)
    const owedToCustomer = -(await expectMedusaAndGatewayAgree(s, orderId))
    expect(owedToCustomer).toBe(2 * s.seed.prices.eur)
    const fields = "id,*payment_collections,*payment_collections.payments,*payment_collections.payments.refunds"
    const payments = (await admin(s, "get", `/admin/orders/${orderId}?fields=${fields}`)).data.order.payment_collections.flatMap((c: any) => c.payments ?? [])
    expect(payments).toHaveLength(2)
    const transactions = payments.map((p: any) => p.data.transaction_id as string)
    expect(new Set(transactions).size).toBe(2)
    const linkPayment = payments.find((p: any) => p.provider_id === "pp_pgs-hosted_pgs")

    // The dashboard refunds one payment at a time. The whole return asked of the link's payment exceeds what it
    // captured: refused with Medusa's message before the gateway is called, and no refund row is left behind.
    const refundsAtGateway = async () => (await ledger(s.sandbox)).filter((e) => e.transaction_type === "REFUND" && !e.replay && transactions.includes(e.parent_id!))
    const tooMuch = await adminPost(s, `/admin/payments/${linkPayment.id}/refund`, { amount: owedToCustomer })
    expect(tooMuch.status).toBe(400)
    expect(tooMuch.data.message).toMatch(/not allowed to refund more than the captured amount/)
    expect(await refundsAtGateway()).toEqual([])
    const untouched = (await admin(s, "get", `/admin/payments/${linkPayment.id}?fields=id,*refunds`)).data.payment
    expect(untouched.refunds ?? []).toEqual([])
    expect(-(await expectMedusaAndGatewayAgree(s, orderId))).toBe(owedToCustomer)

    // Split across the payments, each refund goes to its own transaction, within what that payment captured.
    for (const payment of payments) expect((await adminPost(s, `/admin/payments/${payment.id}/refund`, { amount: Number(payment.amount) })).status).toBe(200)
    expect((await refundsAtGateway()).map((r) => [r.parent_id, r.amount]).sort()).toEqual(transactions.map((t: string) => [t, minor(s.seed.prices.eur)]).sort())
    expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(0)
    const paymentModule = s.container().resolve<any>(Modules.PAYMENT)
    await expect(paymentModule.refundPayment({ payment_id: linkPayment.id, amount: 1 })).rejects.toThrow(/cannot refund more than what is captured on the payment/)
  })

  it.each(ORDER_CHANGES_OWING_MORE)("pays what %s sending out more than it takes back owes through the link", async (_, change) => {
    const { orderId } = await capturedOrder(s)
    await drillOrderChange(s, orderId, change, async (collectionId) => {
      const opened = await openLink(here((await issueLink(s, orderId, collectionId)).url))
      expect(hostedPage(opened.location!).amount).toBe(minor(s.seed.prices.eur))
      expect(await payOnHostedPage(opened.location!, s.sandbox.testCard("frictionless_approved"))).toContain("pgs_outcome=success")
      await paidCollection(s, orderId, collectionId)
    })
  })

  it("leaves an abandoned link owed and payable: opening the page and leaving charges nothing and records nothing", async () => {
    const { orderId, collectionId, link } = await orderOwingMore()
    const opened = await openLink(link.url)
    const page = hostedPage(opened.location!)
    // The shopper looks at the gateway's page and closes the tab.
    const shown = await openLink(opened.location!)
    expect(shown.status).toBe(200)
    expect(shown.body).toContain('name="card_number"')

    expect(transactionsFor(page.reference)).toEqual([])
    const { collection, payments } = await paymentsOfCollection(s, orderId, collectionId)
    expect(collection.status).toBe("not_paid")
    expect(payments).toEqual([])
    expect((await owedByOrder(s, orderId)).owed).toEqual([expect.objectContaining({ payment_collection_id: collectionId, amount: "25.50" })])
    expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(s.seed.prices.eur)

    // A later visit goes back to the same page (no second page that could be paid too) and pays it.
    const later = await openLink(link.url)
    expect(later.location).toBe(opened.location)
    expect(await payOnHostedPage(later.location!, s.sandbox.testCard("frictionless_approved"))).toBe(page.success_url)
    const paid = await paidCollection(s, orderId, collectionId)
    expect(paid.payments).toHaveLength(1)
    await captureIfAuthorized(paid.payments[0])
    expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(0)
  })

  it("takes one payment when two tabs both pay the same link; the second tab is told it is paid", async () => {
    const { orderId, collectionId, link } = await orderOwingMore()
    const [a, b] = await Promise.all([openLink(link.url), openLink(link.url)])
    expect(b.location).toBe(a.location)
    const page = hostedPage(a.location!)
    const card = s.sandbox.testCard("frictionless_approved")
    const backs = await Promise.all([payOnHostedPage(a.location!, card), payOnHostedPage(b.location!, card)])
    expect(backs).toEqual([page.success_url, page.success_url])
    for (const back of backs) expect((await openLink(here(back!))).state).toBe("paid")
    expect(transactionsFor(page.reference)).toHaveLength(1)
    expect(approvedFor(page.reference)).toHaveLength(1)
    const { payments } = await paidCollection(s, orderId, collectionId)
    expect(payments).toHaveLength(1)
    await captureIfAuthorized(payments[0])
    expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(0)
  })

  it("says Not paid when the shopper presses Cancel on the gateway's page, charges nothing, and the link still pays once they start over", async () => {
    const { orderId, collectionId, link } = await orderOwingMore()
    const opened = await openLink(link.url)
    const page = hostedPage(opened.location!)
    const back = await cancelOnHostedPage(opened.location!)
    expect(back).toBe(page.cancel_url)
    const result = await openLink(here(back!))
    expect(result).toMatchObject({ status: 200, state: "canceled" })
    expect(result.body).toContain("nothing was charged")
    expect(transactionsFor(page.reference)).toEqual([])
    expect((await paymentsOfCollection(s, orderId, collectionId)).payments).toEqual([])
    expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(s.seed.prices.eur)
    // A GET changes nothing (a link preview or a prefetch makes one too): the link still leads to the same page.
    expect((await openLink(here(back!))).state).toBe("canceled")
    expect((await openLink(link.url)).location).toBe(opened.location)

    // The page's Start over (a POST) closes it; opening the link again offers a new page that can be paid.
    expect(await startOver(s.medusaUrl, result.body)).toMatchObject({ status: 200, state: "notPaid" })
    const again = await openLink(link.url)
    expect(again.status).toBe(303)
    expect(again.location).not.toBe(opened.location)
    expect(await payOnHostedPage(again.location!, s.sandbox.testCard("frictionless_approved"))).toContain("pgs_outcome=success")
    const paid = await paidCollection(s, orderId, collectionId)
    expect(paid.payments).toHaveLength(1)
    await captureIfAuthorized(paid.payments[0])
    expect(await expectMedusaAndGatewayAgree(s, orderId)).toBe(0)
  })
})
