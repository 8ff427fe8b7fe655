"use server"
/**
 * PGS (medusa-payment-pgs): what the checkout does on the server once the widget, in the browser, has completed
 * the cart: forget the cart, refresh the cached cart and orders, and show the starter's order confirmation.
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
