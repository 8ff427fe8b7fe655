/**
 * PGS: {storefrontUrl}/payment-collection/{id}?order_id=… — the page behind the dashboard's "Copy payment link"
 * (money after checkout: an order edit, exchange, claim or draft order left the order owing more). The starter's
 * middleware adds the country code (/dk/payment-collection/…, query kept), so the page lives under [countryCode].
 * The widget shows what is owed and for which order and records the payment; a logged-in customer who owns the
 * order is offered their saved cards.
 */
import { getAuthHeaders } from "@lib/data/cookies"
import PgsCollectionStep from "@modules/checkout/components/pgs-payment/collection-payment"
import { Heading } from "@modules/common/components/ui"
import { Metadata } from "next"

export const metadata: Metadata = { title: "Pay for your order" }

type Props = { params: Promise<{ countryCode: string; id: string }>; searchParams: Promise<{ order_id?: string }> }

export default async function PgsPaymentCollectionPage({ params, searchParams }: Props) {
  const { countryCode, id } = await params
  const { order_id } = await searchParams
  const auth = await getAuthHeaders()
  const token = "authorization" in auth ? auth.authorization.replace(/^Bearer /, "") : undefined
  return (
    <div className="content-container py-12 max-w-2xl">
      <Heading level="h1" className="text-3xl-regular mb-6">
        Pay for your order
      </Heading>
      <PgsCollectionStep countryCode={countryCode} collectionId={id} orderId={order_id} token={token} />
    </div>
  )
}
