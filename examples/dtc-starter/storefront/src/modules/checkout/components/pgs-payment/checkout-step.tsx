"use client"
/**
 * PGS: the payment step. Once a delivery method is chosen (the starter's "Continue to payment" opens
 * ?step=payment), the widget lists the region's PGS methods, takes the card in the gateway's embedded fields
 * (or a saved card, a wallet, a redirect method), runs 3-D Secure, and completes the cart itself: it replaces
 * both the starter's Payment and Review steps. On an order, the server action shows the order confirmation.
 */
import { pgsOrderPlaced } from "@lib/data/pgs"
import Divider from "@modules/common/components/divider"
import { Heading, clx } from "@modules/common/components/ui"
import { PgsCheckout } from "medusa-payment-pgs-storefront/react"
import { useParams, useSearchParams } from "next/navigation"
import { pgsConnection } from "./connection"
import { sandboxWallet } from "./sandbox-wallet"

/** The starter's look (Inter, near-black buttons, small radius); the widget's shadow root keeps Tailwind's reset out. */
export const appearance = { variables: { fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif", colorPrimary: "#18181b", borderRadius: "6px" } }

type Props = { cartId: string; deliveryChosen: boolean; token?: string }

// Sandbox only: a test wallet, so a logged-in shopper can pay "with a wallet" and save the card (see sandbox-wallet).
const wallet = sandboxWallet(process.env.NEXT_PUBLIC_PGS_SANDBOX_WALLET_CARD)

export default function PgsCheckoutStep({ cartId, deliveryChosen, token }: Props) {
  const isOpen = useSearchParams().get("step") === "payment"
  const { countryCode } = useParams<{ countryCode: string }>()
  const ready = isOpen && deliveryChosen

  return (
    <div className="bg-white">
      <Heading
        level="h2"
        className={clx("flex flex-row text-3xl-regular gap-x-2 items-baseline mb-6", {
          "opacity-50 pointer-events-none select-none": !ready,
        })}
      >
        Payment
      </Heading>
      {ready && (
        <PgsCheckout
          {...pgsConnection}
          id="pgs-payment"
          authToken={() => token}
          cartId={cartId}
          wallet={wallet}
          appearance={appearance}
          onOrder={(order) => pgsOrderPlaced(order.id, order.shipping_address?.country_code ?? countryCode)}
        />
      )}
      <Divider className="mt-8" />
    </div>
  )
}
