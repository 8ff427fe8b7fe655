/**
 * The payer of an order's payment collection as the order knows them: the order's email and billing address
 * (else shipping address). The equivalent of the cart payer (api/store/pgs/payment-sessions/cart-payer.ts) for a
 * collection without a cart, so redirect methods and the hosted page get the gateway's required payer fields from
 * the order, never from what a browser claims.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CartPayer } from "./server-requests"
import { findPayableCollection, type CollectionOrder } from "./order-collection"

/** The payer fields of an order (blank fields left out). */
export function payerOfOrder(order: Pick<CollectionOrder, "email" | "billing_address" | "shipping_address">): CartPayer {
  const address = order.billing_address ?? order.shipping_address ?? null
  const payer: Record<string, string | null | undefined> = {
    email: order.email,
    first_name: address?.first_name,
    last_name: address?.last_name,
    phone: address?.phone,
    address: address?.address_1,
    city: address?.city,
    postal_code: address?.postal_code,
    country: address?.country_code ? address.country_code.toUpperCase() : undefined,
  }
  return Object.fromEntries(Object.entries(payer).filter(([, v]) => typeof v === "string" && v.trim() !== "")) as CartPayer
}

/** The payer of the order this payment collection belongs to, or undefined when it belongs to no order. */
export async function orderPayerOf(container: MedusaContainer, paymentCollectionId: string): Promise<CartPayer | undefined> {
  const view = await findPayableCollection(container, paymentCollectionId)
  return view?.order ? payerOfOrder(view.order) : undefined
}
