"use client"
/**
 * PGS: the return page's body. The gateway sends the shopper back here after a redirect method, the hosted
 * payment page or a bank's 3-D Secure page; the widget completes the cart again and follows the payment until the
 * gateway's webhook decides it. Approved → the starter's order confirmation; declined or canceled → a message
 * and a link back to the payment step (the cart is still there). A shopper who left from a payment-collection page
 * (collection-payment.tsx) is sent back there instead.
 */
import { pgsOrderPlaced } from "@lib/data/pgs"
import { PgsReturn } from "medusa-payment-pgs-storefront/react"
import { returnToCollection } from "medusa-payment-pgs-storefront/react/collection"
import { useEffect, useState } from "react"
import { appearance } from "./checkout-step"
import { pgsConnection } from "./connection"

type Props = { countryCode: string; cartId?: string; token?: string }

export default function PgsReturnStatus({ countryCode, cartId, token }: Props) {
  // Decided in the browser (the note is in sessionStorage): null until then, true while going back to the collection.
  const [toCollection, setToCollection] = useState<boolean | null>(null)
  useEffect(() => setToCollection(returnToCollection()), [])
  if (toCollection !== false) return null
  return (
    <PgsReturn
      {...pgsConnection}
      id="pgs-return"
      authToken={() => token}
      appearance={appearance}
      cartId={cartId}
      checkoutUrl={`/${countryCode}/checkout?step=payment`}
      onResult={(r) => {
        if (r.status === "approved" && r.order) void pgsOrderPlaced(r.order.id, r.order.shipping_address?.country_code ?? countryCode)
      }}
    />
  )
}
