/**
 * Pay-link support: an order that comes to owe more through Medusa's own order edit, the admin's link to what it
 * owes, the shopper opening it (no redirects followed) and paying on the sandbox's hosted page.
 */
import { request } from "undici"
import { admin, paidOrder } from "./admin-pgs"
import { adminPost, BROWSER_INFO } from "./checkout"
import { walletPayment } from "./checkout-direct"
import { orderPayments } from "./redirect"
import type { StoreSuite } from "./store"
import { waitFor } from "./webhooks"

/** A placed order whose card payment is captured (so an edit asks only for the difference). */
export async function capturedOrder(s: StoreSuite) {
  const placed = await paidOrder(s)
  const { payments } = await orderPayments(s, placed.orderId)
  if (!payments[0].captured_at) {
    const captured = await adminPost(s, `/admin/payments/${payments[0].id}/capture`)
    if (captured.status !== 200) throw new Error(`capture: ${captured.status} ${JSON.stringify(captured.data)}`)
  }
  return placed
}

/** Medusa's order edit adding `quantity` more of the seeded item, requested and confirmed by the admin. */
export async function editAddingItem(s: StoreSuite, orderId: string, quantity = 1) {
  const step = async (path: string, body: unknown = {}) => {
    const res = await admin(s, "post", path, body)
    if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.data).slice(0, 400)}`)
    return res.data
  }
  const edit = await step("/admin/order-edits", { order_id: orderId })
  const editId = edit.order_change.id
  await step(`/admin/order-edits/${orderId}/items`, { items: [{ variant_id: s.seed.variantId, quantity }] })
  await step(`/admin/order-edits/${orderId}/request`)
  await step(`/admin/order-edits/${orderId}/confirm`)
  return editId as string
}

/** Medusa's draft order (one seeded item, for a registered customer if given) turned into an order by the admin: its order id. */
export async function orderFromDraft(s: StoreSuite, customerId?: string) {
  const created = await admin(s, "post", "/admin/draft-orders", {
    ...(customerId ? { customer_id: customerId } : { email: `draft-${Date.now().toString(36)}@example.com` }),
    region_id: s.seed.regions.eur,
    sales_channel_id: s.seed.salesChannelId,
    items: [{ variant_id: s.seed.variantId, quantity: 1 }],
    billing_address: { first_name: "Ada", last_name: "Lovelace", address_1: "1 Analytical St", city: "Berlin", country_code: "de", postal_code: "10115" },
  })
  if (created.status !== 200) throw new Error(`draft order: ${created.status} ${JSON.stringify(created.data).slice(0, 400)}`)
  const draftId = created.data.draft_order.id as string
  const converted = await admin(s, "post", `/admin/draft-orders/${draftId}/convert-to-order`)
  if (converted.status !== 200) throw new Error(`convert: ${converted.status} ${JSON.stringify(converted.data).slice(0, 400)}`)
  return converted.data.order.id as string
}

/** What the order owes according to Medusa (its summary) and the plugin's list of collections owed. */
export async function owedByOrder(s: StoreSuite, orderId: string) {
  const order = (await admin(s, "get", `/admin/orders/${orderId}?fields=id,status,summary,payment_status`)).data.order
  const owed = (await admin(s, "get", `/admin/pgs/orders/${orderId}/pay-link`)).data.owed as Array<{ payment_collection_id: string; amount: string; currency_code: string }>
  return { pendingDifference: Number(order.summary.pending_difference), owed, order }
}

export async function issueLink(s: StoreSuite, orderId: string, collectionId: string) {
  const res = await admin(s, "post", `/admin/pgs/orders/${orderId}/pay-link`, { payment_collection_id: collectionId })
  if (res.status !== 200) throw new Error(`issue link: ${res.status} ${JSON.stringify(res.data)}`)
  return res.data as { url: string; expires_at: string; amount: string; currency_code: string }
}

/** The shopper opens a link: where it sends them (303), or the page it shows (its state). */
export async function openLink(url: string, headers: Record<string, string> = {}) {
  const res = await request(url, { method: "GET", headers })
  const body = await res.body.text()
  const state = /data-state="(\w+)"/.exec(body)?.[1] ?? null
  return { status: res.statusCode, location: (res.headers.location as string | undefined) ?? null, state, body, headers: res.headers }
}

/** Presses the result page's Start over button: the form post its HTML names, as the browser sends it. */
export async function startOver(medusaUrl: string, pageHtml: string) {
  const action = /<form method="post" action="([^"]+)"/.exec(pageHtml)?.[1]
  if (!action) throw new Error("the page has no Start over form")
  const res = await request(medusaUrl + action.replace(/&amp;/g, "&").replace(/&#38;/g, "&"), { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" })
  const body = await res.body.text()
  return { status: res.statusCode, state: /data-state="(\w+)"/.exec(body)?.[1] ?? null, body }
}

/** Pays on the sandbox's hosted page; answers where the page sends the shopper back. */
export async function payOnHostedPage(pageUrl: string, card: string) {
  const res = await request(`${pageUrl}/pay`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ card_number: card, expiry_month: "12", expiry_year: String(new Date().getFullYear() + 2), cvv: "123" }).toString(),
  })
  await res.body.text()
  return (res.headers.location as string | undefined) ?? null
}

/** Presses Cancel on the sandbox's hosted page; answers where the page sends the shopper back. */
export async function cancelOnHostedPage(pageUrl: string) {
  const res = await request(`${pageUrl}/cancel`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "" })
  await res.body.text()
  return (res.headers.location as string | undefined) ?? null
}

/** The payments of one payment collection of the order (admin API). */
export async function paymentsOfCollection(s: StoreSuite, orderId: string, collectionId: string) {
  const { order } = await orderPayments(s, orderId)
  const collection = order.payment_collections.find((c: any) => c.id === collectionId)
  return { collection, payments: (collection?.payments ?? []) as any[] }
}

/** Waits until Medusa recorded a payment on the collection (the webhook applied it). */
export const paidCollection = (s: StoreSuite, orderId: string, collectionId: string) =>
  waitFor(
    async () => {
      const read = await paymentsOfCollection(s, orderId, collectionId)
      return read.payments.length ? read : undefined
    },
    { what: `a payment on ${collectionId}` },
  )

/** The consent to later charges by the shop as the widget asks it in English (the test store's name). */
export const CONSENT_ASKED = { wording: "pgs-widget-1", locale: "en-US", text: "Save this card and allow Medusa Store to charge it for amounts I still owe on my orders" }

/** How the card saver's checkout goes: with the consent to later charges by the shop unless `consent: false`;
 * `simulatedFlow`: the sandbox's full simulator decides the checkout (approved), so a test card's own scenario
 * applies only to later charges. */
type SaverCheckout = { consent?: boolean; simulatedFlow?: string }

/** A registered customer's order, paid at checkout (captured) with a card they chose to save. */
export async function orderOfCardSaver(s: StoreSuite, scenario = "frictionless_approved", how: SaverCheckout = {}) {
  const owner = await s.registerCustomer()
  const cart = await s.createCart({ customerToken: owner.token })
  // A wallet credential that skips 3-D Secure at checkout: the card is saved whatever 3-D Secure it needs later.
  const data = {
    payment_method: walletPayment(s.sandbox.testCard(scenario)),
    browser_info: BROWSER_INFO,
    save_card: true,
    ...(how.consent === false ? {} : { merchant_consent: CONSENT_ASKED }),
    ...(how.simulatedFlow ? { simulated_flow: how.simulatedFlow } : {}),
  }
  await s.initiatePaymentSession(cart.id, "pp_pgs_pgs", data, owner.token)
  const done = await s.completeCart(cart.id, owner.token)
  if (done.data.type !== "order") throw new Error(`no order: ${JSON.stringify(done.data).slice(0, 300)}`)
  const orderId = done.data.order.id as string
  const { payments } = await orderPayments(s, orderId)
  if (!payments[0].captured_at && (await adminPost(s, `/admin/payments/${payments[0].id}/capture`)).status !== 200) throw new Error("capture failed")
  const card = await waitFor(async () => {
    const list = await admin(s, "get", `/admin/pgs/customers/${owner.customer.id}/saved-cards`)
    return list.data.saved_cards?.[0]
  }, { what: "the card saved at checkout" })
  return { orderId, card, customerId: owner.customer.id as string }
}

/** The card saver's order, then edited to owe more. */
export async function orderOfCardSaverOwingMore(s: StoreSuite, scenario = "frictionless_approved", how: SaverCheckout = {}) {
  const placed = await orderOfCardSaver(s, scenario, how)
  await editAddingItem(s, placed.orderId)
  return { ...placed, collectionId: (await owedCollection(s, placed.orderId)).collectionId }
}

/** The one payment collection the order owes on (the plugin's list) and what it asks for, in major units. */
export async function owedCollection(s: StoreSuite, orderId: string) {
  const { owed } = await owedByOrder(s, orderId)
  if (owed.length !== 1) throw new Error(`expected one owed collection, got ${JSON.stringify(owed)}`)
  return { collectionId: owed[0].payment_collection_id, amount: Number(owed[0].amount) }
}
