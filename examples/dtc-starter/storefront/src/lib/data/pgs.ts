"use server"
/**
 * PGS (medusa-payment-pgs): what the checkout does on the server once the widget, in the browser, has completed
 * the cart: forget the cart, refresh the cached cart and orders, and show the starter's order confirmation. And
 * after a payment-collection page was paid: refresh the cached orders.
 */
import { revalidateTag } from "next/cache"
import { redirect } from "next/navigation"
import { getCacheTag, removeCartId } from "./cookies"

export async function pgsOrderPlaced(orderId: string, countryCode: string) {
  revalidateTag(await getCacheTag("carts"))
  revalidateTag(await getCacheTag("orders"))
  await removeCartId()
  redirect(`/${countryCode}/order/${orderId}/confirmed`)
}

/**
 * A payment-collection page was paid. The order changed since this browser cached it (the starter reads orders
 * with `force-cache`: an edit in the dashboard added items, and a payment was recorded); without this the
 * account's order page still shows the order as it was at checkout.
 */
export async function pgsCollectionPaid() {
  revalidateTag(await getCacheTag("orders"))
}
