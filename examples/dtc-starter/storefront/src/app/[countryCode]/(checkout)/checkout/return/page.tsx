/**
 * PGS: {PGS_STORE_URL}/checkout/return?pgs_session=… — where the gateway sends the shopper back. The starter's
 * middleware adds the country code (/dk/checkout/return?pgs_session=…, query kept), so the page lives under
 * [countryCode]. The cart id comes from the starter's cart cookie (else the widget's own note from before leaving).
 */
import { getAuthHeaders, getCartId } from "@lib/data/cookies"
import PgsReturnStatus from "@modules/checkout/components/pgs-payment/return-status"
import { Heading } from "@modules/common/components/ui"
import { Metadata } from "next"

export const metadata: Metadata = { title: "Payment" }

export default async function PgsReturnPage({ params }: { params: Promise<{ countryCode: string }> }) {
  const { countryCode } = await params
  const auth = await getAuthHeaders()
  const token = "authorization" in auth ? auth.authorization.replace(/^Bearer /, "") : undefined
  return (
    <div className="content-container py-12 max-w-2xl">
      <Heading level="h1" className="text-3xl-regular mb-6">
        Payment
      </Heading>
      <PgsReturnStatus countryCode={countryCode} cartId={await getCartId()} token={token} />
    </div>
  )
}
