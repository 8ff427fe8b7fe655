/**
 * What the dashboard does with the plugin's admin routes, and the data it looks at: an order paid through the
 * sandbox (with its webhook received), a customer with a card the gateway tokenized.
 */
import { authorizeCard } from "../../sandbox/cards-support"
import { paidEmbeddedCart } from "./checkout"
import type { StoreSuite } from "./store"
import { linkGatewayCustomer, processedEvent, waitFor } from "./webhooks"

export const TOKENIZED = "tokenization-webhook:payment-method:tokenized"

type Method = "get" | "post" | "delete"

/** An admin API call as the dashboard makes it (bearer token); every status is returned, none thrown. */
export async function admin(s: StoreSuite, method: Method, path: string, body?: unknown, headers?: Record<string, string>) {
  const config = { headers: headers ?? (await s.adminHeaders()), validateStatus: () => true }
  const res = method === "post" ? await s.api.post(path, body ?? {}, config) : await s.api[method](path, config)
  return { status: res.status as number, data: res.data }
}

/** A placed order paid by card in the embedded fields, once the gateway's approval webhook was processed. */
export async function paidOrder(s: StoreSuite, scenario = "frictionless_approved", cartInput: Parameters<StoreSuite["createCart"]>[0] = {}) {
  const { cart, session, transactionId } = await paidEmbeddedCart(s, scenario, cartInput)
  const done = await s.completeCart(cart.id)
  if (done.data?.type !== "order") throw new Error(`cart did not become an order: ${JSON.stringify(done.data)}`)
  await processedEvent(s, transactionId)
  return { orderId: done.data.order.id as string, session, transactionId }
}

/** A registered customer with one card the gateway tokenized for them (brand VISA, expiry 7/2031). */
export async function customerWithSavedCard(s: StoreSuite) {
  const shopper = await s.registerCustomer()
  const gatewayCustomerId = await linkGatewayCustomer(s, { id: shopper.customer.id, email: shopper.email })
  const res = await authorizeCard(s.sandbox, {
    payment_method: s.sandbox.encryptedCard({ number: s.sandbox.testCard("frictionless_approved"), month: "7", year: "2031" }),
    tokenization: { save_card_for_future_payments: true },
    customer: { id: gatewayCustomerId },
  })
  const token: string = res.body.result.payment_method.token
  await processedEvent(s, token, TOKENIZED)
  const cards = await waitFor(async () => {
    const list = await admin(s, "get", `/admin/pgs/customers/${shopper.customer.id}/saved-cards`)
    return list.data.saved_cards?.length ? list.data.saved_cards : null
  }, { what: "the saved card in the admin list" })
  return { customerId: shopper.customer.id as string, token, card: cards[0], gatewayCustomerId }
}
