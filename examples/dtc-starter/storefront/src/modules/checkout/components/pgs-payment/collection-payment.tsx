"use client"
/**
 * PGS: the payment-collection page's body (PgsCollectionPayment). After a redirect method the gateway sends the
 * shopper to the return page, which sends them back here (returnToCollection in return-status.tsx); the widget
 * then records the payment and shows it. Paid → the cached orders are refreshed, then a link to the order's page in
 * the account (a logged-in owner whose link named the order: the widget never tells the order's id) or a thank you.
 */
import { pgsCollectionPaid } from "@lib/data/pgs"
import { PgsCollectionPayment } from "medusa-payment-pgs-storefront/react/collection"
import { useState } from "react"
import { appearance } from "./checkout-step"
import { pgsConnection } from "./connection"

type Props = { countryCode: string; collectionId: string; orderId?: string; token?: string }

export default function PgsCollectionStep({ countryCode, collectionId, orderId, token }: Props) {
  const [paid, setPaid] = useState(false)
  return (
    <>
      <PgsCollectionPayment
        {...pgsConnection}
        id="pgs-collection"
        authToken={() => token}
        appearance={appearance}
        collectionId={collectionId}
        orderId={orderId}
        onPaid={() => void pgsCollectionPaid().finally(() => setPaid(true))}
      />
      {paid && token && orderId && (
        <p className="mt-6">
          <a className="underline" href={`/${countryCode}/account/orders/details/${orderId}`}>
            See your order
          </a>
        </p>
      )}
    </>
  )
}
