/**
 * Partial capture and refund as the order widget makes them (Medusa's own admin routes, with the widget's
 * expected-amount header), a secret API key's credentials, and what a fulfillment needs (a stock location and a
 * manual shipping option) so Medusa's createOrderFulfillmentWorkflow can run for the seeded digital item.
 */
import { ContainerRegistrationKeys, Modules } from "@medusajs/framework/utils"
import { createApiKeysWorkflow } from "@medusajs/core-flows"
import type { StoreSuite } from "./store"
import { admin, paidOrder } from "./admin-pgs"
import { adminPayment, paymentOfOrder } from "./checkout"
import { waitFor } from "./webhooks"

export const EXPECT_CAPTURED = "x-pgs-expect-captured"
export const EXPECT_REFUNDED = "x-pgs-expect-refunded"

/** POST /admin/payments/:id/capture or /refund as the widget sends it: amount in major units, what it saw in minor units. */
export async function operate(s: StoreSuite, paymentId: string, what: "capture" | "refund", amount: number, seen?: number, headers?: Record<string, string>) {
  const base = headers ?? (await s.adminHeaders())
  const expect = seen === undefined ? {} : { [what === "capture" ? EXPECT_CAPTURED : EXPECT_REFUNDED]: String(seen) }
  return admin(s, "post", `/admin/payments/${paymentId}/${what}`, { amount }, { ...base, ...expect })
}

/** A secret API key (Medusa's "Basic <token>:" credentials) and its id. */
export async function secretKey(s: StoreSuite, title: string) {
  const { result } = await createApiKeysWorkflow(s.container()).run({ input: { api_keys: [{ title, type: "secret", created_by: "" }] } })
  return { id: result[0].id as string, headers: { authorization: `Basic ${Buffer.from(`${result[0].token}:`).toString("base64")}` } }
}

/** A stock location and a manual shipping option to fulfill from. */
export async function fulfillmentSetup(s: StoreSuite) {
  const container = s.container()
  const locations = container.resolve(Modules.STOCK_LOCATION) as any
  const fulfillment = container.resolve(Modules.FULFILLMENT) as any
  const location = await locations.createStockLocations({ name: "Warehouse" })
  // Names are unique per module: a test may set up more than once.
  const unique = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`
  const profile = await fulfillment.createShippingProfiles({ name: `Default ${unique}`, type: "default" })
  const set = await fulfillment.createFulfillmentSets({
    name: `Warehouse shipping ${unique}`,
    type: "shipping",
    service_zones: [{ name: `Europe ${unique}`, geo_zones: [{ type: "country", country_code: "de" }] }],
  })
  const option = await fulfillment.createShippingOptions({
    name: "Standard",
    price_type: "flat",
    service_zone_id: set.service_zones[0].id,
    shipping_profile_id: profile.id,
    provider_id: "manual_manual",
    type: { label: "Standard", description: "Standard", code: "standard" },
    rules: [],
  })
  return { location_id: location.id as string, shipping_option_id: option.id as string }
}

export async function orderItems(s: StoreSuite, orderId: string): Promise<Array<{ id: string; quantity: number }>> {
  const res = await admin(s, "get", `/admin/orders/${orderId}?fields=id,items.id,items.quantity`)
  return res.data.order.items
}

/** POST /admin/orders/:id/fulfillments, as the dashboard's "Fulfill items". */
export function fulfill(s: StoreSuite, orderId: string, where: { location_id: string; shipping_option_id: string }, items: Array<{ id: string; quantity: number }>) {
  return admin(s, "post", `/admin/orders/${orderId}/fulfillments`, { items, ...where })
}

export const knexOf = (s: StoreSuite) => s.container().resolve(ContainerRegistrationKeys.PG_CONNECTION) as any

/** The sandbox's own record of a transaction (with captured_amount and final_capture). */
export async function gatewayRecord(s: StoreSuite, transactionId: string) {
  return (await s.sandbox.control("GET", `/_sandbox/transactions/${transactionId}`)).body.record
}

/** An order of three items (3 × 25.50 EUR = 76.50 EUR authorized, before any tax) and where to fulfill it from. */
export async function orderOfThree(s: StoreSuite, cart: { shipping_address?: Record<string, string> } = {}) {
  const { orderId, transactionId } = await paidOrderOf(s, 3, cart)
  const [item] = await orderItems(s, orderId)
  return { orderId, transactionId, item, where: await fulfillmentSetup(s), payment: await paymentOfOrder(s, orderId) }
}

async function paidOrderOf(s: StoreSuite, quantity: number, cart: { shipping_address?: Record<string, string> }) {
  const create = s.createCart
  s.createCart = (input = {}) => create({ ...input, ...cart, quantity })
  try {
    return await paidOrder(s)
  } finally {
    s.createCart = create
  }
}

/**
 * The payment once it has `n` captures (and, with `settled`, Medusa's captured_at: the module writes the capture row
 * before the gateway's answer and sets captured_at after it, so the row alone can be seen first).
 */
export const capturesOf = async (s: StoreSuite, paymentId: string, n: number, settled = false) =>
  waitFor(async () => {
    const p = await adminPayment(s, paymentId)
    return p.captures.length >= n && (!settled || p.captured_at) ? p : null
  }, { what: `${n} capture(s)${settled ? " and captured_at" : ""}` })

