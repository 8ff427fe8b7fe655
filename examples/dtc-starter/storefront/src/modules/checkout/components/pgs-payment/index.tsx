/**
 * PGS (medusa-payment-pgs): the checkout's payment step in a region with PGS providers. A server component: it
 * reads the logged-in customer's token (the starter keeps it in an httpOnly cookie) so the widget can list, use
 * and delete the customer's saved cards; guests get none. The widget itself runs in the browser (checkout-step).
 */
import { getAuthHeaders } from "@lib/data/cookies"
import { HttpTypes } from "@medusajs/types"
import PgsCheckoutStep from "./checkout-step"

export default async function PgsPayment({ cart }: { cart: HttpTypes.StoreCart }) {
  const auth = await getAuthHeaders()
  const token = "authorization" in auth ? auth.authorization.replace(/^Bearer /, "") : undefined
  return <PgsCheckoutStep cartId={cart.id} deliveryChosen={(cart.shipping_methods?.length ?? 0) > 0} token={token} />
}
