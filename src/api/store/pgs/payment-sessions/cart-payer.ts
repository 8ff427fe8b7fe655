/**
 * The payer of a payment session as its cart knows them: the cart's email and billing address (else shipping
 * address), and the country of that address or of the cart's region when it has only one. Read server-side,
 * so redirect methods fill the gateway's required payer fields from the cart, not from what a browser claims.
 */
import type { MedusaContainer } from "@medusajs/framework/types"
import type { CartPayer } from "../../../../payments/server-requests"
import { looseQuery } from "../../../../lib/loose-query"

type Address = { first_name?: string | null; last_name?: string | null; phone?: string | null; address_1?: string | null; city?: string | null; postal_code?: string | null; country_code?: string | null } | null
type CartView = { email?: string | null; billing_address?: Address; shipping_address?: Address; region?: { countries?: Array<{ iso_2?: string | null }> | null } | null }

const ADDRESS = ["first_name", "last_name", "phone", "address_1", "city", "postal_code", "country_code"]

export async function cartPayerOf(scope: MedusaContainer, paymentCollectionId: string): Promise<CartPayer | undefined> {
  const query = looseQuery(scope)
  const { data } = await query.graph({
    entity: "payment_collection",
    fields: ["id", "cart.email", ...ADDRESS.map((f) => `cart.billing_address.${f}`), ...ADDRESS.map((f) => `cart.shipping_address.${f}`), "cart.region.countries.iso_2"],
    filters: { id: paymentCollectionId },
  })
  const cart = (data[0] as { cart?: CartView | null } | undefined)?.cart
  if (!cart) return undefined
  const address = cart.billing_address ?? cart.shipping_address ?? null
  const regionCountries = (cart.region?.countries ?? []).map((c) => c.iso_2).filter((c): c is string => !!c)
  const country = address?.country_code ?? (regionCountries.length === 1 ? regionCountries[0] : undefined)
  const payer: Record<string, string | undefined> = {
    email: cart.email ?? undefined,
    first_name: address?.first_name ?? undefined,
    last_name: address?.last_name ?? undefined,
    phone: address?.phone ?? undefined,
    address: address?.address_1 ?? undefined,
    city: address?.city ?? undefined,
    postal_code: address?.postal_code ?? undefined,
    country: country ? country.toUpperCase() : undefined,
  }
  return Object.fromEntries(Object.entries(payer).filter(([, v]) => typeof v === "string" && v.trim() !== "")) as CartPayer
}
